import Postgres

/// The SQL that generates the scale data set, server-side, one batch of users at a time.
///
/// Every row's id is computed from (kind, user index, sub-index, seed), so batches need
/// no joins to find what they reference, a re-run with the same seed changes nothing
/// (`ON CONFLICT DO NOTHING`), and the same seed always yields the same data.
extension ScaleDataSet {
    /// Session helpers (`pg_temp`, gone when the connection closes): a deterministic hash and an id maker.
    static let sessionFunctions = """
        CREATE OR REPLACE FUNCTION pg_temp.h(a bigint, b bigint, salt bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT abs(hashint8extended(a * 1000003 + b, salt)) $$;
        CREATE OR REPLACE FUNCTION pg_temp.uid(kind bigint, seed bigint, a bigint, b bigint) RETURNS uuid
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT (lpad(to_hex(kind), 8, '0') || '-' || lpad(to_hex(seed), 4, '0') || '-4' || lpad(to_hex(b / 4096), 3, '0')
                    || '-8' || lpad(to_hex(b % 4096), 3, '0') || '-' || lpad(to_hex(a), 12, '0'))::uuid
        $$;
        CREATE OR REPLACE FUNCTION pg_temp.pick(options text[], a bigint, b bigint, salt bigint) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT options[1 + pg_temp.h(a, b, salt) % cardinality(options)]
        $$;
        """

    // Id kinds (the first 8 hex digits of every generated id).
    static let userKind = 0x5CA1_E001, familyKind = 0x5CA1_E002, schoolKind = 0x5CA1_E003, coachKind = 0x5CA1_E004
    static let interactionKind = 0x5CA1_E005, statusKind = 0x5CA1_E006, documentKind = 0x5CA1_E007
    static let eventKind = 0x5CA1_E008, offerKind = 0x5CA1_E009, postKind = 0x5CA1_E00A, commentKind = 0x5CA1_E00B
    static let parentActivityKind = 0x5CA1_E00C

    static let firstNames = [
        "Ava", "Liam", "Mia", "Noah", "Emma", "Mateo", "Zoe", "Ethan", "Chloe", "Lucas", "Aria", "Mason", "Nora",
        "Elijah", "Ivy", "Caleb", "Layla", "Owen", "Ruby", "Isaac", "Hazel", "Leo", "Naomi", "Miles", "Priya", "Omar",
        "Grace", "Diego", "Hana", "Kai", "Maya", "Jonah", "Elena", "Theo", "Sara", "Andre", "Lucia", "Felix", "Amara",
        "Jasper",
    ]
    static let lastNames = [
        "Garcia", "Nguyen", "Smith", "Johnson", "Okafor", "Patel", "Kim", "Rossi", "Silva", "Cohen", "Murphy",
        "Hughes", "Tanaka", "Novak", "Haddad", "Larsen", "Moreau", "Schmidt", "Reyes", "Adeyemi", "Walsh", "Chen",
        "Brooks", "Khan", "Lopez", "Fischer", "Ward", "Diaz", "Park", "Owens",
    ]
    static let colleges = [
        "Stanford University", "UCLA", "University of North Carolina", "Duke University", "University of Michigan",
        "Arizona State University", "University of Florida", "Ohio State University", "University of Texas",
        "Georgetown University", "Boston College", "University of Virginia", "Notre Dame", "Penn State",
        "University of Oregon", "University of Washington", "Vanderbilt University", "Wake Forest University",
        "Rice University", "Tulane University", "Clemson University", "Auburn University", "LSU", "Baylor University",
        "TCU", "SMU", "University of Iowa", "Iowa State University", "University of Kansas", "Kansas State University",
        "University of Utah", "BYU", "Colorado State University", "University of Colorado", "Gonzaga University",
        "Santa Clara University", "UC Berkeley", "UC San Diego", "UC Davis", "Cal Poly", "San Diego State",
        "Fresno State", "University of Arizona", "University of Nevada", "Boise State", "Montana State",
        "University of Minnesota", "University of Wisconsin", "Northwestern University", "Purdue University",
        "Indiana University", "University of Illinois", "Michigan State University", "Rutgers University",
        "University of Maryland", "Syracuse University", "Cornell University", "Columbia University",
        "Princeton University", "Yale University", "Harvard University", "Brown University", "Dartmouth College",
        "University of Pennsylvania", "Villanova University", "Temple University", "UConn", "UMass Amherst",
        "University of Vermont", "University of Maine", "William & Mary", "Virginia Tech", "James Madison University",
        "George Mason University", "NC State", "Appalachian State", "University of South Carolina",
        "University of Georgia", "Georgia Tech", "Florida State University", "University of Miami", "UCF",
        "University of Alabama", "Ole Miss", "Mississippi State", "University of Tennessee", "University of Kentucky",
        "University of Louisville", "University of Arkansas", "University of Missouri", "University of Oklahoma",
        "Oklahoma State University", "Texas A&M", "Texas Tech", "University of Houston", "University of Memphis",
        "Creighton University", "Marquette University", "Xavier University", "Butler University",
    ]
    static let statuses = ["researching", "contacted", "interested", "visited", "offer_received", "committed"]
    static let interactionTypes = [
        "email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm",
    ]
    static let subjects = [
        "Introduction and highlight reel", "Follow-up after camp", "Updated transcript", "Tournament schedule",
        "Questionnaire sent", "Call with the head coach", "Unofficial visit", "Thank-you note", "Offer discussion",
        "Academic questions", "Film request", "Showcase invitation",
    ]
    static let contents = [
        "Sent my latest film and the spring schedule.", "Coach asked for my SAT scores and transcript.",
        "Talked through the roster for next year and where I would fit.", "Toured the campus and met the team.",
        "Coach said they will watch me at the showcase this weekend.", "Asked about the major and study hall hours.",
        "Thanked the staff for their time and the visit.", "Coach called to talk about scholarship options.",
    ]
    static let documentTypes = ["transcript", "highlight_video", "test_scores", "financial", "offer_letter", "results"]
    static let eventTypes = ["camp", "showcase", "unofficial_visit", "official_visit", "meet", "tournament"]
    static let offerTypes = ["partial_scholarship", "full_scholarship", "preferred_walk_on", "verbal"]
    static let captions = [
        "Great practice today!", "New personal best!", "Game day.", "Thankful for my team.", "Early morning lift.",
        "Tournament weekend recap.", "Campus visit was amazing.", "Back at it.",
    ]
    static let commentBodies = ["Let's go!", "So proud of you!", "Amazing!", "Congrats!", "Well deserved.", "Huge!"]

    static func array(_ values: [String]) -> String {
        "ARRAY[" + values.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",") + "]"
    }
}
