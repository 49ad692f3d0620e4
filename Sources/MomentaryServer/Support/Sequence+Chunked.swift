extension Sequence {
    /// The elements in arrays of at most `size`: for statements that bind one value per element,
    /// kept well under every database's limit on bound values.
    func chunked(_ size: Int) -> [[Element]] {
        var chunks: [[Element]] = []
        for element in self {
            if chunks.isEmpty || chunks[chunks.count - 1].count == size { chunks.append([]) }
            chunks[chunks.count - 1].append(element)
        }
        return chunks
    }
}
