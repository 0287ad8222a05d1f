import Testing

@testable import CompassREST
