extension OpenAPIDocument {
    /// `components.schemas`: every key the encoders write is listed and required (nullable ones as `[T, "null"]`).
    static let schemas = """
        {
          "Error": {
            "type": "object", "required": ["code", "message"],
            "properties": {"code": {"type": "string", "description": "Stable: invalid_parameter, invalid_body, confirmation_required, session_required, invalid_token, not_found, not_allowed, not_parent_of_family, not_a_parent, body_too_large, internal_error."}, "message": {"type": "string"}}
          },
          "Unauthorized": {
            "type": "object", "required": ["message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "hint": {"type": "string"}}
          },
          "CascadeDeleteRequest": {
            "type": "object", "required": ["confirmDelete"],
            "properties": {"confirmDelete": {"type": "boolean", "const": true}}
          },
          "CascadeDeleteResponse": {
            "type": "object", "required": ["success", "deleted", "message"],
            "properties": {
              "success": {"type": "boolean"},
              "deleted": {"type": "object", "required": ["interactions"], "properties": {"interactions": {"type": "integer"}}},
              "message": {"type": "string"}
            }
          },
          "FeedResponse": {
            "type": "object", "required": ["events", "page", "totalPages", "total"],
            "properties": {
              "events": {"type": "array", "items": {"$ref": "#/components/schemas/ActivityEvent"}},
              "page": {"type": "integer"}, "totalPages": {"type": "integer"}, "total": {"type": "integer"},
              "warnings": {"type": "array", "items": {"type": "string"}, "description": "Present only when a source failed to load."}
            }
          },
          "ActivityEvent": {
            "type": "object",
            "required": ["id", "type", "timestamp", "title", "description", "icon", "entityType", "entityId", "entityName", "metadata", "isClickable", "clickUrl"],
            "properties": {
              "id": {"type": "string"}, "type": {"type": "string", "enum": ["interaction", "school_status_change", "document_upload"]},
              "timestamp": {"type": "string", "format": "date-time"}, "title": {"type": "string"}, "description": {"type": "string"},
              "icon": {"type": "string"}, "entityType": {"type": ["string", "null"]}, "entityId": {"type": ["string", "null"]},
              "entityName": {"type": ["string", "null"]}, "metadata": {"type": ["object", "null"]}, "isClickable": {"type": "boolean"},
              "clickUrl": {"type": ["string", "null"]}
            }
          },
          "TimelineResponse": {
            "type": "object", "required": ["start", "end", "months", "swimlanes", "items", "todayPosition", "viewRange", "schools"],
            "properties": {
              "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
              "months": {"type": "array", "items": {"$ref": "#/components/schemas/TimelineMonth"}},
              "swimlanes": {"type": "array", "items": {"$ref": "#/components/schemas/TimelineSwimlane"}},
              "items": {"type": "array", "items": {"$ref": "#/components/schemas/TimelineItem"}},
              "todayPosition": {"type": ["number", "null"]},
              "viewRange": {"type": "string", "enum": ["3", "6", "12", "all"]},
              "schools": {"type": "array", "items": {"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "string", "format": "uuid"}, "name": {"type": "string"}}}}
            }
          },
          "TimelineMonth": {
            "type": "object", "required": ["key", "label", "year", "date", "left", "width"],
            "properties": {"key": {"type": "string"}, "label": {"type": "string"}, "year": {"type": "integer"}, "date": {"type": "string", "format": "date-time"}, "left": {"type": "number"}, "width": {"type": "number"}}
          },
          "TimelineSwimlane": {
            "type": "object", "required": ["schoolId", "schoolName", "entries"],
            "properties": {
              "schoolId": {"type": ["string", "null"], "format": "uuid"}, "schoolName": {"type": "string"},
              "entries": {"type": "array", "items": {"type": "object", "required": ["item", "placement"], "properties": {
                "item": {"$ref": "#/components/schemas/TimelineItem"},
                "placement": {"type": "object", "required": ["left", "width", "isPoint", "stackLevel"], "properties": {"left": {"type": "number"}, "width": {"type": "number"}, "isPoint": {"type": "boolean"}, "stackLevel": {"type": "integer"}}}
              }}}
            }
          },
          "TimelineItem": {
            "type": "object", "required": ["id", "sourceId", "type", "typeLabel", "emoji", "label", "date", "endDate", "schoolId", "schoolName", "details"],
            "properties": {
              "id": {"type": "string"}, "sourceId": {"type": "string", "format": "uuid"},
              "type": {"type": "string", "enum": ["event", "interaction", "offer", "status_change"]}, "typeLabel": {"type": "string"},
              "emoji": {"type": "string"}, "label": {"type": "string"}, "date": {"type": "string", "format": "date-time"},
              "endDate": {"type": ["string", "null"], "format": "date-time"}, "schoolId": {"type": ["string", "null"], "format": "uuid"},
              "schoolName": {"type": ["string", "null"]}, "details": {"type": ["string", "null"]}
            }
          },
          "InteractionListing": {
            "type": "object", "required": ["interactions", "analytics"],
            "properties": {
              "interactions": {"type": "array", "items": {"$ref": "#/components/schemas/InteractionItem"}},
              "analytics": {"type": "object", "required": ["totalCount", "outboundCount", "inboundCount", "thisWeekCount"], "properties": {"totalCount": {"type": "integer"}, "outboundCount": {"type": "integer"}, "inboundCount": {"type": "integer"}, "thisWeekCount": {"type": "integer"}}}
            }
          },
          "InteractionItem": {
            "type": "object",
            "required": ["id", "familyUnitId", "userId", "loggedBy", "schoolId", "coachId", "type", "direction", "subject", "content", "sentiment", "occurredAt", "attachments", "createdAt", "updatedAt", "displayDate", "schoolName", "coachName"],
            "properties": {
              "id": {"type": "string", "format": "uuid"}, "familyUnitId": {"type": "string", "format": "uuid"}, "userId": {"type": "string", "format": "uuid"},
              "loggedBy": {"type": "string", "format": "uuid"}, "schoolId": {"type": ["string", "null"], "format": "uuid"}, "coachId": {"type": ["string", "null"], "format": "uuid"},
              "type": {"type": "string", "enum": ["email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm"]},
              "direction": {"type": "string", "enum": ["outbound", "inbound"]}, "subject": {"type": ["string", "null"]}, "content": {"type": ["string", "null"]},
              "sentiment": {"type": ["string", "null"], "enum": ["very_positive", "positive", "neutral", "negative", null]},
              "occurredAt": {"type": ["string", "null"], "format": "date-time"}, "attachments": {"type": "array", "items": {"type": "string"}},
              "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": ["string", "null"], "format": "date-time"},
              "displayDate": {"type": "string", "format": "date-time"}, "schoolName": {"type": ["string", "null"]}, "coachName": {"type": ["string", "null"]}
            }
          },
          "NotificationsResponse": {
            "type": "object", "required": ["notifications", "unreadCount"],
            "properties": {"notifications": {"type": "array", "items": {"$ref": "#/components/schemas/GroupedNotification"}}, "unreadCount": {"type": "integer"}}
          },
          "GroupedNotification": {
            "type": "object",
            "required": ["id", "activityType", "postId", "commentId", "isRead", "isGrouped", "createdAt", "text", "actors", "activityIds", "activities"],
            "properties": {
              "id": {"type": "string", "format": "uuid", "description": "Usable with /api/v1/notifications/read to mark the whole group."},
              "activityType": {"type": "string", "enum": ["like", "comment", "follow"]}, "postId": {"type": ["string", "null"], "format": "uuid"},
              "commentId": {"type": ["string", "null"], "format": "uuid"}, "isRead": {"type": "boolean"}, "isGrouped": {"type": "boolean"},
              "createdAt": {"type": "string", "format": "date-time"}, "text": {"type": "string"},
              "actors": {"type": "array", "items": {"$ref": "#/components/schemas/Profile"}},
              "activityIds": {"type": "array", "items": {"type": "string", "format": "uuid"}},
              "activities": {"type": "array", "items": {"$ref": "#/components/schemas/Notification"}}
            }
          },
          "Notification": {
            "type": "object",
            "required": ["id", "userId", "actorId", "activityType", "postId", "commentId", "isRead", "createdAt", "actorProfile", "commentBody", "postCaption"],
            "properties": {
              "id": {"type": "string", "format": "uuid"}, "userId": {"type": "string", "format": "uuid"}, "actorId": {"type": "string", "format": "uuid"},
              "activityType": {"type": "string", "enum": ["like", "comment", "follow"]}, "postId": {"type": ["string", "null"], "format": "uuid"},
              "commentId": {"type": ["string", "null"], "format": "uuid"}, "isRead": {"type": "boolean"}, "createdAt": {"type": "string", "format": "date-time"},
              "actorProfile": {"anyOf": [{"$ref": "#/components/schemas/Profile"}, {"type": "null"}]},
              "commentBody": {"type": ["string", "null"]}, "postCaption": {"type": ["string", "null"]}
            }
          },
          "Profile": {
            "type": "object", "required": ["userId", "username", "fullName", "avatarUrl"],
            "properties": {"userId": {"type": "string", "format": "uuid"}, "username": {"type": "string"}, "fullName": {"type": ["string", "null"]}, "avatarUrl": {"type": ["string", "null"]}}
          },
          "UnreadCount": {"type": "object", "required": ["unreadCount"], "properties": {"unreadCount": {"type": "integer"}}},
          "MarkReadRequest": {
            "type": "object", "required": ["ids"],
            "properties": {"ids": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uuid"}, "description": "Notification ids, or grouped rows' ids."}}
          },
          "NotificationChange": {
            "type": "object", "required": ["changed", "unreadCount"],
            "properties": {"changed": {"type": "integer"}, "unreadCount": {"type": "integer"}}
          },
          "ParentActivityPage": {
            "type": "object", "required": ["activities", "nextCursor"],
            "properties": {"activities": {"type": "array", "items": {"$ref": "#/components/schemas/ParentActivity"}}, "nextCursor": {"type": ["string", "null"]}}
          },
          "ParentActivity": {
            "type": "object",
            "required": ["id", "familyID", "triggeringUserID", "activityType", "targetEntity", "targetEntityID", "changes", "deviceID", "timestamp"],
            "properties": {
              "id": {"type": "string", "format": "uuid"}, "familyID": {"type": "string", "format": "uuid"}, "triggeringUserID": {"type": "string", "format": "uuid"},
              "activityType": {"type": "string"}, "targetEntity": {"type": "string"}, "targetEntityID": {"type": "string", "format": "uuid"},
              "changes": {"type": "object"}, "deviceID": {"type": ["string", "null"]}, "timestamp": {"type": "string", "format": "date-time"}
            }
          }
        }
        """
}
