import Testing
@testable import MomentaryCore

@Suite("Uniform draws")
struct UniformDrawTests {
    @Test("Integers below a bound are uniform (chi-square, 6 degrees of freedom, α = 0.001)")
    func integersAreUniform() {
        var generator = Xoshiro256StarStar(seed: 42)
        var counts = [Int](repeating: 0, count: 7)
        let draws = 70_000
        for _ in 0..<draws { counts[UniformDraw.below(7, using: &generator)] += 1 }
        let expected = Double(draws) / 7
        let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        // Upper 0.1% point of the chi-square distribution with 6 degrees of freedom.
        #expect(chiSquare < 22.458, "counts \(counts)")
    }

    @Test("Fractions lie in [0, 1) and are uniform")
    func fractionsAreUniform() {
        var generator = Xoshiro256StarStar(seed: 43)
        let samples = (0..<20_000).map { _ in UniformDraw.fraction(using: &generator) }
        #expect(samples.allSatisfy { $0 >= 0 && $0 < 1 })
        let critical = KolmogorovSmirnov.criticalValue(count: samples.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(samples) < critical)
    }

    @Test("A bound of one always gives zero; large bounds stay in range")
    func bounds() {
        var generator = Xoshiro256StarStar(seed: 44)
        #expect((0..<100).allSatisfy { _ in UniformDraw.below(1, using: &generator) == 0 })
        #expect((0..<1000).allSatisfy { _ in (0..<Int.max).contains(UniformDraw.below(.max, using: &generator)) })
    }
}
