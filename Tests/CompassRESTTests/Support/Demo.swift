import CompassTestSupport

/// The demo fixture's ids (sql/fixtures/demo.sql).
typealias Demo = DemoFixture
