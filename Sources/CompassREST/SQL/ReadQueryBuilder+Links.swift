/// How an embedded level is tied to its parent row: directly by a foreign key, or through the
/// rows of a junction table for many-to-many.
extension ReadQueryBuilder {
    /// The alias of a level's junction table.
    static func junctionAlias(of alias: String) -> String { alias + "_junction" }

    /// ` INNER JOIN "schema"."junction" AS "alias_junction" ON junction.col = alias.col …`: the
    /// junction rows that point at each embedded row.
    static func junctionJoin(_ junction: Junction, schema: String, alias: String) -> SQLBuilder {
        let junctionAlias = junctionAlias(of: alias)
        var sql = SQLBuilder()
        sql.append(" INNER JOIN ")
        sql.append(qualifiedName: junction.table, in: schema)
        sql.append(" AS ")
        sql.append(identifier: junctionAlias)
        sql.append(" ON ")
        sql.append(junction.targetColumns, separator: " AND ") { sql, pair in
            sql.append(column: pair.1, of: junctionAlias)
            sql.append(" = ")
            sql.append(column: pair.0, of: alias)
        }
        return sql
    }

    /// The condition that picks the embedded rows of one parent row.
    static func parentLink(_ relationship: Relationship, alias: String, parentAlias: String) -> SQLBuilder {
        var sql = SQLBuilder()
        if let junction = relationship.junction {
            let junctionAlias = junctionAlias(of: alias)
            sql.append(junction.sourceColumns, separator: " AND ") { sql, pair in
                sql.append(column: pair.1, of: junctionAlias)
                sql.append(" = ")
                sql.append(column: pair.0, of: parentAlias)
            }
        } else {
            sql.append(relationship.columns, separator: " AND ") { sql, pair in
                sql.append(column: pair.1, of: alias)
                sql.append(" = ")
                sql.append(column: pair.0, of: parentAlias)
            }
        }
        return sql
    }
}
