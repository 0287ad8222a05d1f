import Testing

@testable import Postgres

@Suite("PreparedStatementCache: which statements go by name, without a server")
struct PreparedStatementCacheTests {
    let scope = PostgresQuery(unsafeSQL: "SELECT set_config('role', $1, true)", binds: ["authenticated"]).prepared
    let feed = PostgresQuery(unsafeSQL: "SELECT id FROM interactions WHERE logged_by = $1", binds: ["x"]).prepared
    let schools = PostgresQuery(unsafeSQL: "SELECT name FROM schools WHERE id = ANY($1)", binds: ["{}"]).prepared
    let oneOff = PostgresQuery(unsafeSQL: "SELECT 1")

    @Test func preparesOnFirstUseThenRunsByName() {
        var cache = PreparedStatementCache(capacity: 8)
        let first = cache.plan([[scope, feed, oneOff]], mayDeallocate: true)
        guard case .prepareAndRun(let scopeName) = first.steps[0][0], case .prepareAndRun(let feedName) = first.steps[0][1]
        else {
            Issue.record("expected both to be prepared, got \(first.steps)")
            return
        }
        #expect(first.steps[0][2] == .unnamed)
        let second = cache.plan([[scope, feed, oneOff]], mayDeallocate: true)
        #expect(second.steps == [[.named(scopeName), .named(feedName), .unnamed]])
        #expect(second.deallocations.isEmpty)
    }

    @Test func aStatementNewToThePipelineRunsUnnamedInLaterSegments() {
        var cache = PreparedStatementCache(capacity: 8)
        let plan = cache.plan([[scope, feed], [scope, schools]], mayDeallocate: true)
        // The second segment must not depend on the first one's preparation succeeding.
        #expect(plan.steps[1][0] == .unnamed)
        if case .prepareAndRun = plan.steps[1][1] {} else { Issue.record("schools is new to this pipeline: \(plan.steps)") }
        let next = cache.plan([[scope, feed], [scope, schools]], mayDeallocate: true)
        #expect(next.steps.allSatisfy { $0.allSatisfy { if case .named = $0 { true } else { false } } })
    }

    @Test func evictsTheLeastRecentlyUsedStatementTheWorkDoesNotUse() {
        var cache = PreparedStatementCache(capacity: 2)
        let first = cache.plan([[scope, feed]], mayDeallocate: true)
        _ = cache.plan([[scope]], mayDeallocate: true)  // scope is now more recent than feed
        let third = cache.plan([[schools]], mayDeallocate: true)
        #expect(third.deallocations == [first.steps[0][1].name!])
        #expect(cache.count == 2)
        #expect(cache.name(for: feed.sql) == nil)
        #expect(cache.name(for: scope.sql) == first.steps[0][0].name)
    }

    @Test func neverEvictsAStatementThePipelineUses() {
        var cache = PreparedStatementCache(capacity: 1)
        let plan = cache.plan([[scope, feed, schools]], mayDeallocate: true)
        #expect(plan.deallocations.isEmpty)
        #expect(cache.count == 3)
        let next = cache.plan([[oneOff]], mayDeallocate: true)
        #expect(next.deallocations.count == 2)
        #expect(cache.count == 1)
    }

    @Test func deallocationsWaitUntilNoTransactionIsOpen() {
        var cache = PreparedStatementCache(capacity: 8)
        let first = cache.plan([[feed]], mayDeallocate: true)
        cache.statementStale(feed.sql)
        let inTransaction = cache.plan([[feed]], mayDeallocate: false)
        #expect(inTransaction.deallocations.isEmpty)
        if case .prepareAndRun = inTransaction.steps[0][0] {} else { Issue.record("a stale statement is prepared again") }
        let outside = cache.plan([[oneOff]], mayDeallocate: true)
        #expect(outside.deallocations == [first.steps[0][0].name!])
    }

    @Test func forgottenStatementsArePreparedAgainUnderANewName() {
        var cache = PreparedStatementCache(capacity: 8)
        let first = cache.plan([[feed]], mayDeallocate: true)
        cache.forget(feed.sql)
        let second = cache.plan([[feed]], mayDeallocate: true)
        guard case .prepareAndRun(let name) = second.steps[0][0] else {
            Issue.record("expected a new preparation, got \(second.steps)")
            return
        }
        #expect(name != first.steps[0][0].name)
        #expect(second.deallocations.isEmpty)
    }

    @Test func aMissingNameDiscardsEveryNameAndDeallocatesAllFirst() {
        var cache = PreparedStatementCache(capacity: 8)
        _ = cache.plan([[scope, feed]], mayDeallocate: true)
        cache.discardAll()
        #expect(cache.count == 0)
        // Inside a transaction the DEALLOCATE ALL cannot go out yet, so nothing is prepared either.
        let inTransaction = cache.plan([[scope]], mayDeallocate: false)
        #expect(inTransaction.deallocations.isEmpty)
        #expect(inTransaction.steps == [[.unnamed]])
        let next = cache.plan([[scope, feed]], mayDeallocate: true)
        #expect(next.deallocations == ["ALL"])
        #expect(next.steps[0].allSatisfy { if case .prepareAndRun = $0 { true } else { false } })
    }

    @Test func capacityZeroSendsEverythingUnnamed() {
        var cache = PreparedStatementCache(capacity: 0)
        #expect(cache.plan([[scope, feed]], mayDeallocate: true).steps == [[.unnamed, .unnamed]])
        #expect(cache.count == 0)
    }
}
