import Synchronization

/// The results of a pure parse remembered by its input, for the values clients send over and
/// over (`select=` lists, filter keys, `Accept` headers). Bounded: when full it starts over, so
/// a client sending ever new values costs at most `capacity` entries, each of an input of at
/// most `longestInput` bytes. Refusals are not kept: they are parsed again, and answered the same.
final class ParseMemo<Input: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Input: Value]>([:])
    let capacity: Int
    let longestInput: Int

    init(capacity: Int = 512, longestInput: Int = 2048) {
        self.capacity = capacity
        self.longestInput = longestInput
    }

    /// `parse(input)`, from memory when it was parsed before; `bytes` is the input's size.
    func value<Failure: Error>(
        for input: Input, bytes: Int, parse: (Input) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        if let value = entries.withLock({ $0[input] }) { return value }
        let value = try parse(input)
        guard bytes <= longestInput else { return value }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[input] = value
        }
        return value
    }
}

extension ParseMemo where Input == String {
    /// `parse(text)`, from memory when it was parsed before.
    func value<Failure: Error>(for text: String, parse: (String) throws(Failure) -> Value) throws(Failure) -> Value {
        try value(for: text, bytes: text.utf8.count, parse: parse)
    }
}
