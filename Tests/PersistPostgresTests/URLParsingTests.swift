import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("PostgresURL parses postgresql:// URLs and names the part that is wrong")
struct URLParsingTests {
    @Test("a full URL gives every part, percent-decoded")
    func fullURL() throws {
        let url = try PostgresURL("postgresql://app%20user:s%40cr%2Ft@db.example.com:6432/shop%2Fmain?schema=Cat%C3%A1logo")
        #expect(url.host == .name("db.example.com"))
        #expect(url.port == 6432)
        #expect(url.user == "app user")
        #expect(url.hasPassword)
        #expect(url.database == "shop/main")
        #expect(url.schema == "Catálogo")
        #expect(url.connectTimeout == nil)
    }

    @Test("postgres:// works too, the port defaults to 5432 and the schema to public")
    func defaults() throws {
        let url = try PostgresURL("postgres://app@localhost/shop")
        #expect(url.port == 5432)
        #expect(url.schema == "public")
        #expect(url.user == "app")
        #expect(!url.hasPassword)
        #expect(try PostgresURL("POSTGRESQL://localhost/shop").user == nil)
    }

    @Test("an IPv6 host in brackets, with and without a port")
    func ipv6() throws {
        #expect(try PostgresURL("postgresql://app@[::1]:5433/shop").host == .ipv6("::1"))
        #expect(try PostgresURL("postgresql://app@[::1]:5433/shop").port == 5433)
        #expect(try PostgresURL("postgresql://[fe80::1%eth0]/shop").host == .ipv6("fe80::1%eth0"))
        #expect(try PostgresURL("postgresql://[2001:db8::ffff:192.0.2.1]/shop").host == .ipv6("2001:db8::ffff:192.0.2.1"))
    }

    @Test("a Unix socket directory as ?host=")
    func socketDirectory() throws {
        let url = try PostgresURL("postgresql://app@/shop?host=/var/run/postgresql")
        #expect(url.host == .socketDirectory("/var/run/postgresql"))
        #expect(url.location == "postgresql://app@:5432/shop?host=/var/run/postgresql")
        #expect(try PostgresURL("postgresql://app@:5444/shop?host=%2Ftmp%2Fpg").host == .socketDirectory("/tmp/pg"))
    }

    @Test("the query sets the connect timeout and TLS settings")
    func queryOptions() throws {
        let url = try PostgresURL("postgresql://h/db?connect_timeout=3&sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(url.connectTimeout == .seconds(3))
        #expect(url.tlsSettings == ["sslmode": "verify-full", "sslrootcert": "/etc/ca.pem"])
    }

    @Test("a password with unencoded / ? # and @ is still only the password")
    func passwordWithSpecialCharacters() throws {
        let url = try PostgresURL("postgresql://app:p/a?s#s@w@db.example.com/shop")
        #expect(url.user == "app")
        #expect(url.host == .name("db.example.com"))
        #expect(url.database == "shop")
        #expect(url.hasPassword)
    }

    @Test("description, redacted, location and the debugger's view leave the password out")
    func redaction() throws {
        let secret = "Very-Secret-Pa55"
        let url = try PostgresURL("postgresql://app:\(secret)@db.example.com/shop?schema=s&sslmode=require")
        #expect(url.redacted == "postgresql://app@db.example.com:5432/shop?schema=s&sslmode=require")
        #expect(url.location == "postgresql://app@db.example.com:5432/shop")
        var dumped = ""
        dump(url, to: &dumped)
        for text in [url.description, url.redacted, url.location, String(reflecting: url), "\(url)", dumped] {
            #expect(!text.contains(secret), "\(text)")
        }
    }

    @Test("the redacted URL parses back to the same parts")
    func redactedRoundTrip() throws {
        let sources = [
            "postgresql://a%20b:pw@h.example:1/d%20b?schema=x%26y&connect_timeout=4&sslkey=/k%20ey",
            "postgres://[::1]/db", "postgresql://u@/db?host=/tmp/dir%20x", "postgresql://h/%C3%A9",
        ]
        for source in sources {
            let url = try PostgresURL(source)
            let again = try PostgresURL(url.redacted)
            #expect(again.host == url.host && again.port == url.port && again.user == url.user, "\(source)")
            #expect(again.database == url.database && again.schema == url.schema, "\(source)")
            #expect(again.connectTimeout == url.connectTimeout && again.tlsSettings == url.tlsSettings, "\(source)")
            #expect(!again.hasPassword)
        }
    }

    /// Each malformed URL and a word its message must contain.
    static let malformed: [(url: String, names: String)] = [
        ("db.example.com/shop", "postgresql://"),
        ("mysql://app@h/shop", "scheme 'mysql'"),
        ("http://app:pw@h/shop", "scheme"),
        ("postgresql://app@h:http/shop", "port"),
        ("postgresql://app@h:0/shop", "port 0"),
        ("postgresql://app@h:65536/shop", "port 65536"),
        ("postgresql://app@h:/shop", "port"),
        ("postgresql://app@h:99999999999999999999/shop", "port"),
        ("postgresql://app@/shop", "host is missing"),
        ("postgresql://app@bad host/shop", "host"),
        ("postgresql://app@h,other/shop", "host"),
        ("postgresql://app@[::1/shop", "IPv6"),
        ("postgresql://app@[nothex]/shop", "IPv6"),
        ("postgresql://app@[::1]x/shop", "IPv6"),
        ("postgresql://app@h", "database name is missing"),
        ("postgresql://app@h/", "database name is missing"),
        ("postgresql://app@h/a/b", "database name"),
        ("postgresql://app@h/a%zz", "database name"),
        ("postgresql://app@h/a%00b", "database name"),
        ("postgresql://app@h/a%FF", "database name"),
        ("postgresql://app@h/" + String(repeating: "d", count: 64), "database name"),
        ("postgresql://ap%p@h/shop", "user name"),
        ("postgresql://app:p%zzw@h/shop", "password"),
        ("postgresql://:pw@h/shop", "password but no user name"),
        ("postgresql://app@h/shop?schema=", "schema is empty"),
        ("postgresql://app@h/shop?schema=a%00b", "schema"),
        ("postgresql://app@h/shop?schema=" + String(repeating: "s", count: 64), "schema"),
        ("postgresql://app@h/shop?colour=blue", "query parameter 'colour'"),
        ("postgresql://app@h/shop?schema", "query parameter 'schema'"),
        ("postgresql://app@h/shop?schema=a&schema=b", "given twice"),
        ("postgresql://app@h/shop?connect_timeout=soon", "connect_timeout"),
        ("postgresql://app@h/shop?connect_timeout=0", "connect_timeout"),
        ("postgresql://app@h/shop?sslmode=maybe", "sslmode"),
        ("postgresql://app@h/shop?host=relative/dir", "host"),
        ("postgresql://app@h/shop?host=/tmp", "both a host and a socket directory"),
        ("postgresql://app@h/shop?host=", "parameter 'host' is empty"),
        ("postgresql://app@/shop?host=", "parameter 'host' is empty"),
        ("postgresql://app@h/shop#top", "fragment"),
    ]

    @Test("every malformed part throws invalidArgument naming the part")
    func malformedURLs() {
        for (text, names) in Self.malformed {
            let error = expectError(.invalidArgument) { try PostgresURL(text) }
            #expect(error?.message.contains(names) == true, "\(text): \(error?.message ?? "no error")")
        }
    }

    @Test("errors about a malformed URL never quote its password")
    func malformedURLsKeepThePassword() {
        let secret = "Never-Shown-7781"
        let urls = [
            "mysql://app:\(secret)@h/shop", "postgresql://app:\(secret)@h:http/shop", "postgresql://app:\(secret)@/shop",
            "postgresql://app:\(secret)@h/shop?colour=blue", "postgresql://app:\(secret)%zz@h/shop",
            "postgresql://app:\(secret)/x@h:99999/shop", "postgresql://app:\(secret)?q=1@h/a/b",
            "postgresql://app:\(secret)#x@h/shop#frag", "postgresql://app:\(secret)%00@h/shop",
        ]
        for text in urls {
            let error = expectError(.invalidArgument) { try PostgresURL(text) }
            #expect(!String(describing: error as Any).contains(secret), "\(text)")
        }
        // A numeric password typed where "@host" was forgotten reads as a port: it is not quoted.
        let error = expectError(.invalidArgument) { try PostgresURL("postgresql://root:98765432/db") }
        #expect(error?.message.contains("port") == true)
        #expect(error?.message.contains("98765432") == false)
    }

    @Test("the memberwise initializer checks its parts as the parser does")
    func memberwise() throws {
        let url = try PostgresURL(host: .socketDirectory("/tmp"), user: "u", password: "p", database: "d", schema: "s")
        #expect(url.redacted == "postgresql://u@:5432/d?host=/tmp&schema=s")
        expectError(.invalidArgument) { try PostgresURL(host: .name("h"), port: 70000, database: "d") }
        expectError(.invalidArgument) { try PostgresURL(host: .name("h"), database: "") }
        expectError(.invalidArgument) { try PostgresURL(host: .name("h"), database: "d", schema: "") }
        expectError(.invalidArgument) { try PostgresURL(host: .ipv6("zz"), database: "d") }
        expectError(.invalidArgument) { try PostgresURL(host: .name("h"), database: "d", connectTimeout: .zero) }
        expectError(.invalidArgument) { try PostgresURL(host: .name("h"), database: "d", tlsSettings: ["options": "-c x"]) }
    }
}
