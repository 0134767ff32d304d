/// `Encodable` types with hand-written `encode(to:)` methods that use every part of the
/// `Encoder` API, in orders a stream can follow and in orders it cannot.
enum HandWritten {
    enum Key: String, CodingKey {
        case a, b, c, d, inner, list
    }

    /// Writes nothing at all.
    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Nested keyed and unkeyed containers, each filled before its parent moves on.
    struct NestedInOrder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Key.self)
            try outer.encode(1, forKey: .a)
            var inner = outer.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try inner.encode("x", forKey: .a)
            var deeper = inner.nestedUnkeyedContainer(forKey: .list)
            try deeper.encode(1)
            var pair = deeper.nestedUnkeyedContainer()
            try pair.encode(true)
            try pair.encodeNil()
            var object = deeper.nestedContainer(keyedBy: Key.self)
            try object.encode(2.5, forKey: .b)
            try deeper.encode("after")
            _ = outer.nestedUnkeyedContainer(forKey: .list)
            try outer.encode(Nothing(), forKey: .b)
            try outer.encode([String: Int](), forKey: .c)
            try outer.encode([Int](), forKey: .d)
        }
    }

    /// `superEncoder()` and `superEncoder(forKey:)` used at once, one of them left empty.
    struct SuperEncoders: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            _ = container.superEncoder()
            var single = container.superEncoder(forKey: .b).singleValueContainer()
            try single.encode("x")
            try NestedInOrder().encode(to: container.superEncoder(forKey: .c))
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try Base(a: 2).encode(to: list.superEncoder())
            try list.encode(3)
        }
    }

    class Base: Encodable {
        let a: Int
        init(a: Int) { self.a = a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(a, forKey: .a)
        }
    }

    /// A subclass that writes into the container of its superclass.
    final class Derived: Base {
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("derived", forKey: .b)
        }
    }

    /// A subclass that writes its superclass under `super`.
    final class DerivedWithSuper: Base {
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("derived", forKey: .b)
            try super.encode(to: container.superEncoder())
        }
    }

    /// Fails after writing part of itself.
    struct Failing: Encodable {
        struct Failure: Error {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(2)
            throw Failure()
        }
    }

    /// Ignores the failure of some of its members, as `try?` does; Foundation leaves them out.
    struct IgnoresFailures: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try? container.encode(Failing(), forKey: .b)
            try? container.encode(Double.nan, forKey: .c)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try? list.encode(Failing())
            try? list.encode(Double.infinity)
            try list.encode(3)
            try? container.encode(["x": Failing()], forKey: .d)
        }
    }

    /// Adds keys to an object it first wrote as a single value (Foundation carries on with it).
    struct ObjectThenKeys: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(["a": 1])
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(2, forKey: .b)
        }
    }

    // MARK: Orders a stream cannot follow

    /// Fills a nested container after writing to its parent.
    struct NestedAfterParent: Encodable {
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Key.self)
            var inner = outer.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try outer.encode(1, forKey: .a)
            try inner.encode(2, forKey: .b)
        }
    }

    /// Fills two nested arrays element by element, alternately.
    struct Columns: Encodable {
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Key.self)
            var left = outer.nestedUnkeyedContainer(forKey: .a)
            var right = outer.nestedUnkeyedContainer(forKey: .b)
            for index in 0..<3 {
                try left.encode(index)
                try right.encode("\(index)")
            }
        }
    }

    /// Writes an array's super-encoder after the element that follows it.
    struct LateSuperEncoder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(1)
            let later = list.superEncoder()
            try list.encode(3)
            var single = later.singleValueContainer()
            try single.encode(2)
        }
    }
}
