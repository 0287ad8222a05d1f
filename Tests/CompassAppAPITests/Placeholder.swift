import Testing

@testable import CompassAppAPI
