// The schema cache's one reference to the OpenAPI documentation, which needs the whole Postgres
// client to load: a stand-in so the catalog compiles on its own. The parsers never read it.
public struct SchemaDocumentation: Sendable, Hashable {}
