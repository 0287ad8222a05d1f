import CompassTestSupport

/// Waits until `condition` holds, polling every 20 ms; throws after `timeout`.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw HarnessError("timed out") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
