import Testing

@testable import CatalogStorePostgres

@Suite("PostgreSQL URLs")
struct PostgresLocationTests {
    static let environment = ["USER": "runner"]

    @Test("host, port, user, password and database from the URL; either scheme")
    func full() throws {
        for scheme in ["postgresql", "postgres"] {
            let location = try PostgresLocation(url: "\(scheme)://ops:s%40cret@db.example:6543/catalog", environment: Self.environment)
            #expect(location.endpoint == .tcp(host: "db.example", port: 6543))
            #expect(location.username == "ops")
            #expect(location.password == "s@cret", "percent-encoding is decoded")
            #expect(location.database == "catalog")
        }
    }

    @Test("defaults: port 5432, the user from PGUSER then USER, the database named after the user, the password from PGPASSWORD")
    func defaults() throws {
        let plain = try PostgresLocation(url: "postgresql://db.example", environment: Self.environment)
        #expect(plain.endpoint == .tcp(host: "db.example", port: 5432))
        #expect(plain.username == "runner")
        #expect(plain.database == "runner")
        #expect(plain.password == nil)
        let fromPG = try PostgresLocation(
            url: "postgresql://db.example/cat", environment: ["USER": "runner", "PGUSER": "pg", "PGPASSWORD": "from-env"])
        #expect(fromPG.username == "pg")
        #expect(fromPG.password == "from-env")
        let urlWins = try PostgresLocation(url: "postgresql://u:from-url@db.example/cat", environment: ["PGPASSWORD": "from-env"])
        #expect(urlWins.password == "from-url")
    }

    @Test("host=/directory is a Unix socket there, named after the port")
    func unixSocket() throws {
        let location = try PostgresLocation(url: "postgresql://catalog@/catalog?host=/var/run/postgresql", environment: [:])
        #expect(location.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        let withPort = try PostgresLocation(url: "postgresql://catalog@:5433/catalog?host=/tmp/pg/", environment: [:])
        #expect(withPort.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.5433"))
    }

    @Test("what is not a usable URL is refused, saying why", arguments: [
        ("catalog.sqlite", "not a postgresql:// URL"),
        ("mysql://db.example/catalog", "not a postgresql:// URL"),
        ("postgresql:///catalog", "names no host"),
        ("postgresql://u@db.example/catalog?sslmode=require", "'sslmode' is not supported"),
        ("postgresql://u@/catalog?host=relative/dir", "must be a socket directory"),
        ("postgresql://u@db.example/a/b", "holds a '/'"),
        ("postgresql://u@db.example:0/catalog", "out of range"),
    ])
    func refused(url: String, problem: String) {
        #expect {
            try PostgresLocation(url: url, environment: Self.environment)
        } throws: { error in
            "\(error)".contains(problem) && "\(error)".contains("database URL")
        }
    }

    @Test("a password never appears in an error")
    func passwordHidden() {
        #expect {
            try PostgresLocation(url: "postgresql://u:topsecret@db.example/catalog?sslmode=require", environment: [:])
        } throws: { error in
            !"\(error)".contains("topsecret") && "\(error)".contains("u:***@db.example")
        }
    }

    @Test("only postgresql:// and postgres:// name PostgreSQL; anything else is an SQLite path")
    func isURL() {
        #expect(PostgresLocation.isURL("postgresql://x/y"))
        #expect(PostgresLocation.isURL("postgres://x/y"))
        #expect(!PostgresLocation.isURL("catalog.sqlite"))
        #expect(!PostgresLocation.isURL("/var/lib/catalog/postgresql://odd.sqlite"))
    }
}
