import CompassTestSupport

/// Demo users and families of sql/fixtures/demo.sql that the end-to-end tests sign in as.
typealias DemoUsers = DemoFixture
