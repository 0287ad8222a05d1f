import Testing

@testable import CompassRealtime

@Suite("Filters: parsing and typed comparison (no database)")
struct RealtimeFilterTests {
    @Test func parsesEachOperator() throws {
        for op in RealtimeFilter.Operator.allCases where op != .in {
            let filter = try #require(try RealtimeFilter(parsing: "age=\(op.rawValue).65"))
            #expect(filter.column == "age")
            #expect(filter.operator == op)
            #expect(filter.values == ["65"])
        }
        let list = try #require(try RealtimeFilter(parsing: "status=in.( open , pending,\"a,b\")"))
        #expect(list.operator == .in)
        #expect(list.values == ["open", "pending", "a,b"])
    }

    @Test func blankMeansNoFilter() throws {
        #expect(try RealtimeFilter(parsing: "") == nil)
        #expect(try RealtimeFilter(parsing: "   ") == nil)
    }

    @Test func valuesMayContainDotsAndEquals() throws {
        let filter = try #require(try RealtimeFilter(parsing: "email=eq.a.b=c@example.com"))
        #expect(filter.values == ["a.b=c@example.com"])
        let quoted = try #require(try RealtimeFilter(parsing: #"name=eq."say \"hi\"""#))
        #expect(quoted.values == [#"say "hi""#])
    }

    @Test func refusesWhatItDoesNotSupport() {
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "name=like.*x*") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "status=not.in.(draft)") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "a=eq.1,b=eq.2") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "noequals") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "=eq.1") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "a=bogus.1") }
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "a=in.1,2") }
        let tooMany = "(" + (1...101).map(String.init).joined(separator: ",") + ")"
        #expect(throws: RealtimeFilterError.self) { try RealtimeFilter(parsing: "a=in.\(tooMany)") }
    }

    @Test func uuidComparisonIgnoresCase() throws {
        let filter = try compiled("user_id=eq.A1000000-0000-4000-8000-000000000001", .uuid)
        #expect(filter.matches(.string("a1000000-0000-4000-8000-000000000001")))
        #expect(!filter.matches(.string("a1000000-0000-4000-8000-000000000002")))
        #expect(!filter.matches(.null))
        #expect(!filter.matches(nil))
        #expect(filter.equalityKey == .text("a1000000-0000-4000-8000-000000000001"))
        #expect(throws: RealtimeFilterError.self) { try compiled("user_id=eq.not-a-uuid", .uuid) }
    }

    @Test func uuidsAreReadInEveryFormPostgresAccepts() {
        let canonical = "a1000000-0000-4000-8000-00000000000f"
        for written in [canonical, "A10000000000400080000000000000 0F".replacingOccurrences(of: " ", with: ""),
                        "{a1000000-0000-4000-8000-00000000000F}", "a100-0000-0000-4000-8000-0000-0000-000f"] {
            #expect(RealtimeFilterValue.canonicalUUID(written) == canonical, "\(written)")
        }
        for bad in ["", "{}", "a1000000-0000-4000-8000-00000000000", "a1000000-0000-4000-8000-00000000000f0",
                    "g1000000-0000-4000-8000-00000000000f", "{a1000000-0000-4000-8000-00000000000f", "é1000000-0000-4000-8000-00000000000",
                    // Hyphens only between groups of four digits, one at a time (Postgres refuses these).
                    "a1-000000-0000-4000-8000-00000000000f", "-a1000000-0000-4000-8000-00000000000f",
                    "a1000000-0000-4000-8000-00000000000f-", "a1000000--0000-4000-8000-00000000000f"] {
            #expect(RealtimeFilterValue.canonicalUUID(bad) == nil, "\(bad)")
        }
    }

    @Test func numbersCompareNumerically() throws {
        #expect(try compiled("age=lt.65", .bigint).matches(.number("9")))
        #expect(!(try compiled("age=lt.65", .bigint).matches(.number("100"))))
        #expect(try compiled("age=lte.65", .bigint).matches(.number("65")))
        #expect(try compiled("age=gt.65", .bigint).matches(.number("100")))
        #expect(try compiled("age=gte.65", .bigint).matches(.number("65")))
        #expect(try compiled("age=neq.65", .bigint).matches(.number("64")))
        #expect(!(try compiled("age=neq.65", .bigint).matches(.null)))
        #expect(try compiled("price=gt.9.5", .decimal).matches(.number("10.25")))
        #expect(try compiled("price=eq.10", .decimal).matches(.number("10.000")))
        #expect(try compiled("score=lt.1e3", .float).matches(.number("999.5")))
        #expect(throws: RealtimeFilterError.self) { try compiled("age=eq.1.5", .bigint) }
        // What a double cannot hold is refused, as Postgres refuses it; zero in any spelling is fine.
        for bad in ["1e309", "-1e309", "1e-400", "snan", "0x1p3", "nan1"] {
            #expect(throws: RealtimeFilterError.self, "\(bad)") { try compiled("score=eq.\(bad)", .float) }
        }
        for zero in ["0", "-0.0", "0e5", "0.000e-400"] {
            #expect(try compiled("score=eq.\(zero)", .float).matches(.number("0")), "\(zero)")
        }
        #expect(try compiled("score=gt.1e308", .float).matches(.string("Infinity")))
        // float4 rounds to single precision first: 0.1000000001 and 0.1 are the same float4.
        let single = RealtimeValueKind(typeName: "float4", category: "N")
        #expect(try compiled("f=eq.0.1000000001", single).matches(.number("0.1")))
        #expect(try compiled("f=eq.16777217", single).matches(.number("16777216")))
        #expect(!(try compiled("f=lt.0.1", single).matches(.number("0.1"))))
        #expect(throws: RealtimeFilterError.self) { try compiled("f=eq.1e39", single) }
        #expect(throws: RealtimeFilterError.self) { try compiled("f=eq.1e-46", single) }
        #expect(try compiled("f=eq.-Infinity", single).matches(.string("-Infinity")))
        #expect(try compiled("amount=eq.1e131071", .decimal).matches(.number("1e131071")))
    }

    @Test func integerFiltersRefuseValuesTheColumnCannotHold() throws {
        // Postgres refuses the cast ("value out of range for type integer"), so the join fails.
        let int4 = RealtimeValueKind(typeName: "int4", category: "N")
        #expect(throws: RealtimeFilterError.self) { try compiled("n=eq.2147483648", int4) }
        #expect(throws: RealtimeFilterError.self) { try compiled("n=in.(1,-2147483649)", int4) }
        #expect(try compiled("n=eq.-2147483648", int4).matches(.number("-2147483648")))
        let int2 = RealtimeValueKind(typeName: "int2", category: "N")
        #expect(throws: RealtimeFilterError.self) { try compiled("n=gt.32768", int2) }
        #expect(try compiled("n=gt.32766", int2).matches(.number("32767")))
        #expect(throws: RealtimeFilterError.self) { try compiled("n=eq.9223372036854775808", .bigint) }
    }

    @Test func numericComparesEveryDigit() throws {
        // 40 significant digits: `Decimal` keeps 38 and called these equal.
        let exact = try compiled("amount=eq.1234567890123456789012345678901234567891", .decimal)
        #expect(exact.matches(.number("1234567890123456789012345678901234567891")))
        #expect(!exact.matches(.number("1234567890123456789012345678901234567892")))
        #expect(try compiled("amount=lt.0.10000000000000000000000000000000000000000001", .decimal).matches(.number("0.1")))
        #expect(!(try compiled("amount=lt.0.1", .decimal).matches(.number("0.10000000000000000000000000000000000000000001"))))
        // Scale, sign of zero and exponents do not change the value.
        #expect(try compiled("amount=eq.1.5e2", .decimal).matches(.number("150.000")))
        #expect(try compiled("amount=eq.-0.0", .decimal).matches(.number("0")))
        #expect(try compiled("amount=in.(.5,7)", .decimal).matches(.number("0.50")))
        #expect(try compiled("amount=gt.-10", .decimal).matches(.number("-9.99")))
        #expect(!(try compiled("amount=gt.-10", .decimal).matches(.number("-10.01"))))
        #expect(try compiled("amount=lt.1e-3", .decimal).matches(.number("-5")))
        // Postgres sorts NaN above Infinity above every number; to_jsonb writes them as strings.
        #expect(try compiled("amount=gt.Infinity", .decimal).matches(.string("NaN")))
        #expect(try compiled("amount=eq.nan", .decimal).matches(.string("NaN")))
        #expect(try compiled("amount=gt.1e999", .decimal).matches(.string("Infinity")))
        #expect(try compiled("amount=lt.-1e999", .decimal).matches(.string("-Infinity")))
        for bad in ["1.2.3", "1e", "e5", ".", "1 2", "0x10", "1e99999999", "--1", "1e131072", "1e-16384",
                    "1." + String(repeating: "0", count: 16_384)] {
            #expect(throws: RealtimeFilterError.self, "\(bad)") { try compiled("amount=eq.\(bad)", .decimal) }
        }
    }

    @Test func inListsMatchAnyItem() throws {
        let filter = try compiled("type=in.(email,dm)", .text)
        #expect(filter.matches(.string("dm")))
        #expect(!filter.matches(.string("camp")))
        let ids = try compiled("id=in.(1, 2, 3)", .bigint)
        #expect(ids.matches(.number("2")))
        #expect(!ids.matches(.number("4")))
    }

    @Test func timestampsCompareAcrossOffsets() throws {
        let filter = try compiled("created_at=gt.2025-05-04T09:00:00Z", .timestamp(withTimeZone: true))
        #expect(filter.matches(.string("2025-05-04T11:30:00.5+02:00")))
        #expect(!filter.matches(.string("2025-05-04T10:30:00+02:00")))
        #expect(try compiled("d=gte.2025-05-04", .date).matches(.string("2025-05-04")))
        #expect(try compiled("d=lt.2025-05-04", .date).matches(.string("2024-12-31")))
    }

    @Test func yearsBeforeOneAndAfter9999AreReadAsPostgresWritesThem() throws {
        // `to_jsonb` writes them so; they used to match no filter at all, not even `neq`.
        let tz = RealtimeValueKind.timestamp(withTimeZone: true)
        #expect(try compiled("ts=neq.2024-01-01T00:00:00Z", tz).matches(.string("0044-03-15T00:00:00+00:00 BC")))
        #expect(try compiled("ts=lt.0001-01-01T00:00:00Z", tz).matches(.string("0044-03-15T00:00:00+00:00 BC")))
        #expect(try compiled("ts=gt.9999-12-31T23:59:59Z", tz).matches(.string("10000-01-01T00:00:00+00:00")))
        #expect(try compiled("d=eq.0044-03-15 BC", .date).matches(.string("0044-03-15 BC")))
        #expect(try compiled("d=lt.0001-01-01", .date).matches(.string("0001-12-31 BC")))
        #expect(try compiled("d=gt.9999-12-31", .date).matches(.string("12345-06-07")))
        // 1 BC is a leap year (the year 0 of the count); there is no year 0.
        #expect(try compiled("d=eq.0001-02-29 BC", .date).matches(.string("0001-02-29 BC")))
        #expect(throws: RealtimeFilterError.self) { try compiled("d=eq.0002-02-29 BC", .date) }
        #expect(throws: RealtimeFilterError.self) { try compiled("d=eq.0000-01-01", .date) }
        // Years whose microseconds would overflow are refused, not a crash of the worker.
        for far in ["9999999-01-01", "294247-01-01T00:00:00Z", "999999-12-31", "5000-01-01 BC", "200001-01-01"] {
            #expect(throws: RealtimeFilterError.self, "\(far)") { try compiled("ts=eq.\(far)", tz) }
            #expect(throws: RealtimeFilterError.self, "\(far)") { try compiled("ts=eq.\(far)", .timestamp(withTimeZone: false)) }
        }
        #expect(try compiled("ts=gt.199999-12-31T23:59:59-15:59", tz).matches(.string("200000-12-31T23:59:59+00:00")))
        #expect(try compiled("ts=lt.4713-01-01 BC", tz).matches(.string("-infinity")))
        #expect(try compiled("d=gte.-infinity", .date).matches(.string("4714-11-24 BC")))
    }

    @Test func extraFractionDigitsRoundAsPostgresRoundsThem() throws {
        // The fraction read as a double, times a million, rint: .0000025 is 2, .0000035 is 4.
        let plain = RealtimeValueKind.timestamp(withTimeZone: false)
        #expect(try compiled("ts=eq.2024-01-01 00:00:00.0000025", plain).matches(.string("2024-01-01T00:00:00.000002")))
        #expect(try compiled("ts=eq.2024-01-01 00:00:00.0000035", plain).matches(.string("2024-01-01T00:00:00.000004")))
        #expect(try compiled("ts=eq.2024-01-01 00:00:00.0000005", plain).matches(.string("2024-01-01T00:00:00")))
        // Past the ninth digit too, as a double holds the fraction: .00000250000001 is above the
        // half, so 3; a tail below the double's precision changes nothing, so 2.
        #expect(try compiled("ts=eq.2024-01-01 00:00:00.00000250000001", plain).matches(.string("2024-01-01T00:00:00.000003")))
        #expect(try compiled("ts=eq.2024-01-01 00:00:00.0000025000000000000000000001", plain)
            .matches(.string("2024-01-01T00:00:00.000002")))
        #expect(try compiled("ts=eq.2024-01-01 23:59:59.99999999", plain).matches(.string("2024-01-02T00:00:00")))
    }

    @Test func infinityIsAfterAndMinusInfinityBeforeEveryTimeAndDate() throws {
        // `to_jsonb` writes them as these strings; a filter may name them as Postgres reads them.
        let open = try compiled("expires_at=gt.2999-01-01T00:00:00Z", .timestamp(withTimeZone: true))
        #expect(open.matches(.string("infinity")))
        #expect(!open.matches(.string("-infinity")))
        #expect(try compiled("expires_at=eq.Infinity", .timestamp(withTimeZone: true)).matches(.string("infinity")))
        #expect(try compiled("expires_at=lt.infinity", .timestamp(withTimeZone: false)).matches(.string("9999-12-31T23:59:59")))
        #expect(try compiled("d=lt.0001-01-01", .date).matches(.string("-infinity")))
        #expect(try compiled("d=neq.-infinity", .date).matches(.string("2025-05-04")))
        // Postgres refuses '+infinity' for these types (not for float8).
        #expect(throws: RealtimeFilterError.self) { try compiled("d=eq.+infinity", .date) }
    }

    @Test func booleansAndText() throws {
        #expect(try compiled("is_read=eq.true", .boolean).matches(.bool(true)))
        #expect(try compiled("is_read=eq.f", .boolean).matches(.bool(false)))
        // Postgres reads any prefix of its words.
        for (text, value) in [("tr", true), ("TRU", true), ("fals", false), ("ye", true), ("n", false), ("On", true), ("of", false), ("1", true)] {
            #expect(try compiled("is_read=eq.\(text)", .boolean).matches(.bool(value)), "\(text)")
        }
        for bad in ["o", "truee", "2", "yess"] {
            #expect(throws: RealtimeFilterError.self, "\(bad)") { try compiled("is_read=eq.\(bad)", .boolean) }
        }
        #expect(try compiled("name=lt.b", .text).matches(.string("a")))
        #expect(!(try compiled("name=eq.É", .text).matches(.string("E\u{301}"))))
        #expect(throws: RealtimeFilterError.self) { try compiled("tags=eq.x", .unsupported("_text")) }
    }

    @Test func onlyASCIIWhitespaceIsTrimmed() throws {
        // Postgres's readers skip ASCII whitespace only: a no-break space is part of the value.
        #expect(throws: RealtimeFilterError.self) { try compiled("n=eq.\u{00A0}5", .bigint) }
        #expect(try compiled("n=eq.\t5 ", .bigint).matches(.number("5")))
        // A space carrying a combining mark is not trailing whitespace.
        #expect(!(try compiled("t=eq.abc \u{301}", .text).matches(.string("abc"))))
        #expect(try compiled("t=eq.abc \u{301}", .text).matches(.string("abc \u{301}")))
    }

    @Test func textTypesCompareAsPostgresDoes() throws {
        // char(n): `to_jsonb` pads the value; trailing spaces never count.
        let padded = RealtimeValueKind(typeName: "bpchar", category: "S")
        #expect(try compiled("code=eq.abc", padded).matches(.string("abc  ")))
        #expect(try compiled("code=eq.abc   ", padded).matches(.string("abc  ")))
        #expect(!(try compiled("code=neq.abc", padded).matches(.string("abc  "))))
        #expect(try compiled("code=in.(x,abc)", padded).matches(.string("abc  ")))
        #expect(!(try compiled("code=gt.abc", padded).matches(.string("abc  "))))
        #expect(try compiled("code=eq. a", padded).matches(.string(" a   ")))
        // citext: case does not count.
        let folded = RealtimeValueKind(typeName: "citext", category: "S")
        #expect(try compiled("email=eq.Ann@Example.com", folded).matches(.string("ann@example.COM")))
        #expect(try compiled("email=lt.B", folded).matches(.string("abc")))
        // An enum orders by its declared labels and takes only those, exactly as written.
        let mood = RealtimeValueKind(typeName: "mood", category: "E", enumSortOrder: ["sad": 1, "ok": 2, "happy": 3, "Angry": 4])
        #expect(try compiled("mood=gt.sad", mood).matches(.string("Angry")))
        #expect(!(try compiled("mood=lt.sad", mood).matches(.string("happy"))))
        #expect(try compiled("mood=in.(ok,happy)", mood).matches(.string("happy")))
        #expect(try compiled("mood=eq.ok", mood).matches(.string("ok")))
        for unknown in ["meh", "angry", "OK", ""] {
            #expect(throws: RealtimeFilterError.self, "\(unknown)") { try compiled("mood=eq.\(unknown)", mood) }
        }
        // An oid arrives from `to_jsonb` as a string.
        #expect(try compiled("o=eq.5", RealtimeValueKind(typeName: "oid", category: "N")).matches(.string("5")))
    }

    @Test func columnKindsFromCatalogNames() {
        #expect(RealtimeValueKind(typeName: "int8", category: "N") == .bigint)
        #expect(RealtimeValueKind(typeName: "interaction_type", category: "E") == .text)
        #expect(RealtimeValueKind(typeName: "_text", category: "A") == .unsupported("_text"))
    }

    @Test func commitTimestampsFormatInUTCMilliseconds() {
        let micros = RealtimeTimestamp.microseconds(parsing: "2025-05-04T09:12:33.47912+00:00", honouringOffset: true)
        #expect(micros.map { RealtimeTimestamp.isoMillisecondsUTC(microseconds: $0) } == "2025-05-04T09:12:33.479Z")
        #expect(RealtimeTimestamp.isoMillisecondsUTC(microseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RealtimeTimestamp.microseconds(parsing: "2024-02-30", honouringOffset: true) == nil)
    }

    private func compiled(_ text: String, _ kind: RealtimeValueKind) throws -> CompiledRealtimeFilter {
        let filter = try #require(try RealtimeFilter(parsing: text))
        return try CompiledRealtimeFilter(filter, kind: kind)
    }
}
