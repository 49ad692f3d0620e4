/// How random beeps are spread over a day's window (the study document's `sampling`).
public enum SamplingMethod: String, Sendable, Hashable, CaseIterable, Codable {
    /// Each beep uniform over the whole window (circular stars and bars).
    case uniform
    /// The window cut into as many equal blocks as beeps, one beep uniform within each block.
    case stratified
}
