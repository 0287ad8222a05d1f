import CompassHTTP
import Logging
import Testing

@Suite("Settings from the environment: one trimming rule, one error naming the variable")
struct EnvironmentReaderTests {
    @Test func everyValueIsTrimmedTheSameWayAndBlankMeansUnset() throws {
        let environment = EnvironmentReader(["PORT": " 4000\n", "SECONDS": "\t2.5 ", "FLAG": " TRUE ", "BLANK": "  ", "LEVEL": " Debug"])
        #expect(try environment.integer("PORT", in: 0...65535) == 4000)
        #expect(try environment.seconds("SECONDS") == .milliseconds(2500))
        #expect(try environment.boolean("FLAG") == true)
        #expect(try environment.logLevel("LEVEL") == .debug)
        #expect(environment.string("BLANK") == nil)
        #expect(try environment.positiveInteger("BLANK") == nil)
        #expect(try environment.positiveInteger("MISSING") == nil)
    }

    @Test(arguments: [
        ("PORT", "80a", "PORT='80a' is not a whole number in 0…65535"),
        ("PORT", "70000", "PORT='70000' is not a whole number in 0…65535"),
        ("COUNT", "0", "COUNT='0' is not a whole number in 1 or more"),
        ("SECONDS", "-1", "SECONDS='-1' is not a positive number of seconds"),
        ("SECONDS", "inf", "SECONDS='inf' is not a positive number of seconds"),
        ("FLAG", "maybe", "FLAG='maybe' is not true or false"),
    ])
    func aMalformedValueNamesTheVariableAndTheProblem(name: String, value: String, message: String) {
        let environment = EnvironmentReader([name: value])
        #expect {
            switch name {
            case "PORT": _ = try environment.integer(name, in: 0...65535)
            case "COUNT": _ = try environment.positiveInteger(name)
            case "SECONDS": _ = try environment.seconds(name)
            default: _ = try environment.boolean(name)
            }
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func aSecretsProblemNeverRepeatsItsValue() {
        let environment = EnvironmentReader(["SECRET": "hunter2"])
        #expect {
            _ = try environment.secret("SECRET") { _ in "is too short" }
        } throws: { error in
            "\(error)" == "SECRET is too short" && !"\(error)".contains("hunter2")
        }
        #expect {
            _ = try environment.required("NOT_SET")
        } throws: { error in
            "\(error)" == "NOT_SET is not set"
        }
    }
}
