import CompassHTTP
import Hummingbird

/// `GET /api/openapi.json`: the OpenAPI 3.1 description of `/api`.
///
/// Kept as JSON text so it reads like the document clients fetch; `AppAPITests` checks every
/// documented operation against the live server (status, required properties, types) and
/// that every route of ``AppAPI/routes`` is documented.
enum OpenAPIDocument {
    /// The reply (the apikey gate runs first; no user session is needed).
    static var response: Response {
        JSONReply.text(text)
    }

    /// The whole document.
    static let text = """
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Compass app API",
            "version": "1.0.0",
            "description": "The apps' own endpoints on compass-worker: seed 004's cascade-delete and one-call reads that return exactly the JSON of the compass CLI's --json. Every call needs the project's apikey and a signed-in user's access token; the data is read and changed under that user's row-level security."
          },
          "servers": [{"url": "/"}],
          "security": [{"apikey": [], "bearer": []}],
          "paths": \(paths),
          "components": {
            "securitySchemes": {
              "apikey": {"type": "apiKey", "in": "header", "name": "apikey", "description": "The anon (or service_role) API key; also accepted as the apikey query parameter."},
              "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": "The user's access token from /auth/v1."}
            },
            "responses": {
              "BadRequest": {"description": "A parameter or the body is invalid; the message names the value. Nothing was written.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Unauthorized": {"description": "No apikey (the gateway's reply: message and hint), or no valid user session (code session_required or invalid_token).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Unauthorized"}}}},
              "Forbidden": {"description": "The user can see the row or family but may not do this (code not_allowed, not_parent_of_family, not_a_parent).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "NotFound": {"description": "No such row visible to this user (code not_found).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "NotificationChange": {"description": "Rows changed and the new unread count.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NotificationChange"}}}}
            },
            "schemas": \(schemas)
          }
        }
        """
}
