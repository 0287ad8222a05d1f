extension ActivityFeedPage: CompassJSONWritable {
    /// The page's keys in sorted order, as `CompassJSON.encoder()` writes them.
    public func write(to json: inout PrettyJSONWriter) {
        json.object { json in writeMembers(to: &json) }
    }

    /// `events`, `page`, `total`, `totalPages`: for a response that adds keys after them.
    public func writeMembers(to json: inout PrettyJSONWriter) {
        json.key("events")
        json.array { json in
            for event in events {
                json.element()
                event.write(to: &json)
            }
        }
        json.key("page")
        json.int(page)
        json.key("total")
        json.int(total)
        json.key("totalPages")
        json.int(totalPages)
    }
}

extension ActivityEvent {
    /// The event's twelve keys in sorted order, `null` for absent values, as its `Encodable` does.
    public func write(to json: inout PrettyJSONWriter) {
        json.object { json in
            json.key("clickUrl")
            json.string(clickUrl)
            json.key("description")
            json.string(description)
            json.key("entityId")
            json.string(entityId)
            json.key("entityName")
            json.string(entityName)
            json.key("entityType")
            json.string(entityType)
            json.key("icon")
            json.string(icon)
            json.key("id")
            json.string(id)
            json.key("isClickable")
            json.bool(isClickable)
            json.key("metadata")
            if let metadata {
                json.object { json in
                    // Sorted keys; an event's metadata is nearly always its one relative time.
                    if metadata.count == 1, let (key, value) = metadata.first {
                        json.key(key)
                        json.string(value)
                    } else {
                        for key in metadata.keys.sorted() {
                            json.key(key)
                            json.string(metadata[key])
                        }
                    }
                }
            } else {
                json.null()
            }
            json.key("timestamp")
            json.string(timestamp)
            json.key("title")
            json.string(title)
            json.key("type")
            json.string(type.rawValue)
        }
    }
}
