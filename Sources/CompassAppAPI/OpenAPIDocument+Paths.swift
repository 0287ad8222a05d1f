extension OpenAPIDocument {
    /// The `paths` object: one entry per route of ``AppAPI/routes``.
    static let paths = """
        {
          "/api/openapi.json": {
            "get": {
              "operationId": "openapi", "summary": "This document.", "security": [{"apikey": []}],
              "responses": {
                "200": {"description": "The OpenAPI document.", "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "info", "paths", "components"]}}}},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/interactions/{id}/cascade-delete": {
            "post": {
              "operationId": "cascadeDeleteInteraction",
              "summary": "Delete an interaction and what hangs off it (seed 004). Only the athlete who logged it may; another family's interaction is 404.",
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CascadeDeleteRequest"}}}},
              "responses": {
                "200": {"description": "Deleted.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CascadeDeleteResponse"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "403": {"$ref": "#/components/responses/Forbidden"},
                "404": {"$ref": "#/components/responses/NotFound"}
              }
            }
          },
          "/api/v1/feed": {
            "get": {
              "operationId": "feed", "summary": "The Activity Feed (seed 000): `compass feed --json`.",
              "parameters": [
                {"name": "query", "in": "query", "style": "form", "explode": true,
                 "description": "The query parameters type, range, search, page and widget (each optional): page=<n> (default 1) pages the full feed; widget=true is the home-screen widget, which shows the first page only, so widget=true with a page other than 1 is 400. Any other parameter is 400.",
                 "schema": {"oneOf": [
                   {"title": "feed", "type": "object", "additionalProperties": false,
                    "properties": {"type": {"type": "string", "enum": ["interaction", "interactions", "school_status_change", "status", "status_change", "document_upload", "document", "documents"]}, "range": {"type": "string", "enum": ["week", "month", "quarter", "all"], "default": "all"}, "search": {"type": "string"}, "page": {"type": "integer", "minimum": 1, "default": 1}, "widget": {"type": "boolean", "const": false}}},
                   {"title": "widget", "type": "object", "required": ["widget"], "additionalProperties": false,
                    "properties": {"type": {"type": "string", "enum": ["interaction", "interactions", "school_status_change", "status", "status_change", "document_upload", "document", "documents"]}, "range": {"type": "string", "enum": ["week", "month", "quarter", "all"], "default": "all"}, "search": {"type": "string"}, "widget": {"type": "boolean", "const": true}, "page": {"type": "integer", "const": 1}}}
                 ]}}
              ],
              "responses": {
                "200": {"description": "A page of events.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/FeedResponse"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/timeline": {
            "get": {
              "operationId": "timeline", "summary": "The Recruiting Timeline (seed 002): `compass timeline --json`.",
              "parameters": [
                {"name": "range", "in": "query", "schema": {"type": "string", "enum": ["3", "6", "12", "all"], "default": "6"}},
                {"name": "school", "in": "query", "description": "One of the user's schools.", "schema": {"type": "string", "format": "uuid"}},
                {"name": "hide", "in": "query", "description": "Comma-separated: event, interaction, offer, status_change.", "schema": {"type": "string", "minLength": 3, "pattern": "^(event|interaction|offer|status_change)(,(event|interaction|offer|status_change))*$"}}
              ],
              "responses": {
                "200": {"description": "Items, swimlanes and months.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TimelineResponse"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/interactions": {
            "get": {
              "operationId": "interactions", "summary": "The Interactions list with analytics (seed 004): `compass interactions --json`.",
              "parameters": [
                {"name": "query", "in": "query", "style": "form", "explode": true,
                 "description": "The query parameters: type, direction, sentiment, days and search filter either view. Without parent (or with parent=false) the list is the athlete's own; parent=true&family=<family id> is a parent's view of that family, which logged-by=<user id> narrows. family and logged-by without parent=true, parent=true without family, and any other parameter are 400.",
                 "schema": {"oneOf": [
                   {"title": "athlete", "type": "object", "additionalProperties": false,
                    "properties": {"type": {"type": "string", "enum": ["email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm"]}, "direction": {"type": "string", "enum": ["outbound", "inbound"]}, "sentiment": {"type": "string", "enum": ["very_positive", "positive", "neutral", "negative"]}, "days": {"type": "integer", "enum": [7, 14, 30, 90]}, "search": {"type": "string"}, "parent": {"type": "boolean", "const": false}}},
                   {"title": "parent", "type": "object", "required": ["parent", "family"], "additionalProperties": false,
                    "properties": {"type": {"type": "string", "enum": ["email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm"]}, "direction": {"type": "string", "enum": ["outbound", "inbound"]}, "sentiment": {"type": "string", "enum": ["very_positive", "positive", "neutral", "negative"]}, "days": {"type": "integer", "enum": [7, 14, 30, 90]}, "search": {"type": "string"}, "parent": {"type": "boolean", "const": true}, "family": {"type": "string", "format": "uuid"}, "logged-by": {"type": "string", "format": "uuid"}}}
                 ]}}
              ],
              "responses": {
                "200": {"description": "The filtered list and its analytics.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/InteractionListing"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "403": {"$ref": "#/components/responses/Forbidden"}
              }
            }
          },
          "/api/v1/family-activity": {
            "get": {
              "operationId": "familyActivity", "summary": "A page of the co-parent activity log (seed 003): `compass family-activity --json`.",
              "parameters": [
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
                {"name": "cursor", "in": "query", "description": "The previous page's nextCursor, exactly as given: it is checksummed, so any other value is 400.", "schema": {"type": "string", "minLength": 39, "maxLength": 39, "pattern": "^[A-Za-z0-9_-]{39}$"}},
                {"name": "family", "in": "query", "description": "Default: the user's family as a parent.", "schema": {"type": "string", "format": "uuid"}}
              ],
              "responses": {
                "200": {"description": "Activities, newest first, and the next page's cursor.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ParentActivityPage"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "403": {"$ref": "#/components/responses/Forbidden"}
              }
            }
          },
          "/api/v1/notifications": {
            "get": {
              "operationId": "notifications", "summary": "The last 30 days, likes on one post grouped, and the unread count (seed 001): `compass notifications list --json`.",
              "responses": {
                "200": {"description": "The notifications screen.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NotificationsResponse"}}}},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            },
            "delete": {
              "operationId": "clearNotifications", "summary": "Delete every notification of the user: `compass notifications clear --json`.",
              "responses": {
                "200": {"$ref": "#/components/responses/NotificationChange"},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/notifications/unread": {
            "get": {
              "operationId": "unreadCount", "summary": "The unread badge: `compass notifications unread --json`.",
              "responses": {
                "200": {"description": "The count.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UnreadCount"}}}},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/notifications/read": {
            "post": {
              "operationId": "markNotificationsRead", "summary": "Mark notifications read; a grouped row's id marks its whole group: `compass notifications read --json`.",
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MarkReadRequest"}}}},
              "responses": {
                "200": {"$ref": "#/components/responses/NotificationChange"},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/notifications/read-all": {
            "post": {
              "operationId": "markAllNotificationsRead", "summary": "Mark every notification read: `compass notifications read-all --json`.",
              "responses": {
                "200": {"$ref": "#/components/responses/NotificationChange"},
                "401": {"$ref": "#/components/responses/Unauthorized"}
              }
            }
          },
          "/api/v1/notifications/{id}": {
            "delete": {
              "operationId": "deleteNotification", "summary": "Delete one notification: `compass notifications delete --json`.",
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
              "responses": {
                "200": {"$ref": "#/components/responses/NotificationChange"},
                "400": {"$ref": "#/components/responses/BadRequest"},
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"$ref": "#/components/responses/NotFound"}
              }
            }
          }
        }
        """
}
