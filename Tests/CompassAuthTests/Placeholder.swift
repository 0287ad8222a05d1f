import Testing

@testable import CompassAuth
