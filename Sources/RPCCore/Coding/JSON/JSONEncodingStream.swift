/// The state of one streaming JSON encoding: the bytes written so far and the values still
/// open, outermost first.
///
/// `Encoder` never says when a container is finished, so a value stays open until something
/// is written to a value below it or its parent's `encode(to:)` call returns; closing it
/// writes its `}` or `]`, or `{}` when it wrote nothing (as Foundation does). Encoders and
/// containers name their value by a `Slot`; a write through a slot that was closed already
/// (a nested container filled after its parent moved on, say) cannot be expressed in a
/// stream, so it sets `cannotStream` and writes nothing more.
final class JSONEncodingStream {
    /// A place for one JSON value: its depth among the open values and a number no other
    /// value of this encoding has.
    struct Slot {
        let depth: Int
        let id: Int

        /// Names no value; what encoders hand out once `cannotStream` is set.
        static let none = Slot(depth: .max, id: -1)
    }

    /// What an open value holds so far.
    enum Shape {
        case empty, scalar, object, array
    }

    /// How a value is reached from its parent, for coding paths: an array index becomes a key
    /// only when a path is asked for.
    enum Step {
        case key(any CodingKey)
        case index(Int)

        var key: any CodingKey {
            switch self {
            case .key(let key): key
            case .index(let index): JSONCodingKey(intValue: index)
            }
        }
    }

    private struct OpenValue {
        let id: Int
        var shape: Shape
        /// Entries written into the object or array.
        var count: Int
        /// `nil` for the top-level value.
        let step: Step?
    }

    /// What a failed entry rolls back to.
    struct Mark {
        fileprivate let byteCount: Int
        fileprivate let slot: Slot
        fileprivate let shape: Shape
        fileprivate let count: Int
    }

    // One encoding runs on one thread and no access to these spans a call out of this module,
    // so the runtime's exclusivity checks (a quarter of the encoding time) are left out.

    /// The JSON written so far; containers append their scalars here after starting them.
    @exclusivity(unchecked) var output = ByteOutput(capacity: 1024)
    @exclusivity(unchecked) private var open: [OpenValue] = []
    @exclusivity(unchecked) private var lastID = 0
    /// Set by the first write this stream cannot express; nothing is written after it.
    @exclusivity(unchecked) private(set) var cannotStream = false

    // MARK: Values

    /// Opens a new value above the innermost one.
    func push(_ step: Step?) -> Slot {
        lastID += 1
        open.append(OpenValue(id: lastID, shape: .empty, count: 0, step: step))
        return Slot(depth: open.count - 1, id: lastID)
    }

    /// Makes the value at `slot` the innermost one by closing those above it; false, and
    /// `cannotStream`, when that value was closed already.
    func enter(_ slot: Slot) -> Bool {
        guard !cannotStream, slot.depth < open.count, open[slot.depth].id == slot.id else {
            cannotStream = true
            return false
        }
        if open.count > slot.depth + 1 { close(above: slot.depth) }
        return true
    }

    /// Closes every value deeper than `depth`.
    func close(above depth: Int) {
        while open.count > depth + 1 {
            switch open.removeLast().shape {
            case .empty: output.append("{}")
            case .scalar: break
            case .object: output.append(UInt8(ascii: "}"))
            case .array: output.append(UInt8(ascii: "]"))
            }
        }
    }

    /// Records that the encoding needs what a stream cannot do.
    func giveUp() {
        cannotStream = true
    }

    /// What `slot` holds so far, when it is open.
    func shape(of slot: Slot) -> Shape? {
        isOpen(slot) ? open[slot.depth].shape : nil
    }

    /// The entries written into the object or array at `slot`.
    func count(of slot: Slot) -> Int {
        isOpen(slot) ? open[slot.depth].count : 0
    }

    /// The keys from the top-level value to `slot`.
    func codingPath(to slot: Slot) -> [any CodingKey] {
        open.prefix(min(slot.depth + 1, open.count)).compactMap(\.step?.key)
    }

    private func isOpen(_ slot: Slot) -> Bool {
        slot.depth < open.count && open[slot.depth].id == slot.id
    }

    // MARK: Starting values

    /// Starts an entry of the object at `slot`: writes `,"key":` (no comma before the first).
    func beginEntry(of slot: Slot, key: String) -> Mark? {
        guard let mark = beginMember(of: slot) else { return nil }
        output.appendString(key)
        output.append(UInt8(ascii: ":"))
        return mark
    }

    /// Starts an element of the array at `slot`: writes `,` before all but the first.
    func beginElement(of slot: Slot) -> Mark? {
        beginMember(of: slot)
    }

    private func beginMember(of slot: Slot) -> Mark? {
        guard enter(slot) else { return nil }
        let mark = Mark(byteCount: output.count, slot: slot, shape: open[slot.depth].shape, count: open[slot.depth].count)
        if mark.count > 0 { output.append(UInt8(ascii: ",")) }
        open[slot.depth].count += 1
        return mark
    }

    /// Starts the single value of `slot`, which must hold nothing yet.
    func beginSingleValue(in slot: Slot) -> Mark? {
        guard enter(slot) else { return nil }
        guard open[slot.depth].shape == .empty else {
            giveUp()
            return nil
        }
        return Mark(byteCount: output.count, slot: slot, shape: .empty, count: 0)
    }

    /// Records that `slot`, just begun, holds a scalar.
    func markScalar(_ slot: Slot) {
        open[slot.depth].shape = .scalar
    }

    /// Opens `{}` in `slot` when it holds nothing, as Foundation writes a value that encodes
    /// nothing through a single-value container.
    func fillIfEmpty(_ slot: Slot) {
        if shape(of: slot) == .empty { _ = beginContainer(.object, in: slot) }
    }

    /// Starts a scalar as the single value of `slot`, which must hold nothing yet.
    func beginScalar(in slot: Slot) -> Bool {
        guard beginSingleValue(in: slot) != nil else { return false }
        markScalar(slot)
        return true
    }

    /// Opens an object or array in `slot`, or carries on with the one it holds (as Foundation
    /// hands out the same container again); false when `slot` holds something else.
    func beginContainer(_ shape: Shape, in slot: Slot) -> Bool {
        guard enter(slot) else { return false }
        switch open[slot.depth].shape {
        case shape:
            return true
        case .empty:
            open[slot.depth].shape = shape
            output.append(shape == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
            return true
        case .scalar, .object, .array:
            giveUp()
            return false
        }
    }

    /// Removes what was written since `mark` and closes the values opened since, so that a
    /// value whose encoding threw leaves no trace (Foundation drops it too).
    func rollBack(to mark: Mark) {
        guard !cannotStream, isOpen(mark.slot) else {
            giveUp()
            return
        }
        open.removeSubrange((mark.slot.depth + 1)...)
        output.truncate(to: mark.byteCount)
        open[mark.slot.depth].shape = mark.shape
        open[mark.slot.depth].count = mark.count
    }
}
