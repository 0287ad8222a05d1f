import Foundation

/// `GET /admin/users`' (and `/admin/oauth/clients`') `page` and `per_page`, and the `Link` header GoTrue answers with.
///
/// As GoTrue: an absent or empty parameter is its default (page 1, 50 per page; supabase-py
/// and supabase-js send `page=&per_page=`), anything else must be a whole number
/// (400 `validation_failed`, `Bad Pagination Parameters`).
struct AdminPagination: Equatable {
    static let defaultPerPage = 50
    /// Our bound on a page (GoTrue has none): one page is one query's worth of users.
    static let maximumPerPage = 1000

    var page: Int
    var perPage: Int

    /// Reads the two parameters.
    init(page pageText: String?, perPage perPageText: String?, defaultPerPage: Int = AdminPagination.defaultPerPage) throws(AuthError) {
        guard let page = AdminPagination.number(pageText, default: 1), page >= 1,
            let perPage = AdminPagination.number(perPageText, default: defaultPerPage),
            (1...AdminPagination.maximumPerPage).contains(perPage)
        else { throw AuthError.validation("Bad Pagination Parameters") }
        self.page = page
        self.perPage = perPage
    }

    /// Rows to skip; past every row (saturated) for a page too large to count to.
    var offset: Int {
        let (rows, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return overflow ? .max : rows
    }

    /// `Link: <…?page=N+1…>; rel="next", <…?page=LAST…>; rel="last"` for `total` rows: the
    /// request's path and query with `page` replaced (keys sorted, as GoTrue writes them).
    func linkHeader(path: String, query: [(String, String)], total: Int) -> String {
        let pages = (total + perPage - 1) / perPage
        func link(page: Int) -> String {
            var items = query.filter { $0.0 != "page" }
            items.append(("page", String(page)))
            items.sort { $0.0 < $1.0 }
            var components = URLComponents()
            components.path = path
            components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
            return "<" + (components.string ?? path) + ">"
        }
        var links: [String] = []
        if pages > page { links.append(link(page: page + 1) + #"; rel="next""#) }
        links.append(link(page: pages) + #"; rel="last""#)
        return links.joined(separator: ", ")
    }

    private static func number(_ text: String?, default value: Int) -> Int? {
        guard let text, !text.isEmpty else { return value }
        return Int(text)
    }
}
