import Foundation

/// One-sample Kolmogorov–Smirnov test against the uniform distribution on [0, 1).
enum KolmogorovSmirnov {
    /// D = sup |Fₙ(x) − x| over the empirical distribution of `samples`.
    static func statisticAgainstUniform(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        let count = Double(sorted.count)
        var largest = 0.0
        for (index, value) in sorted.enumerated() {
            let above = Double(index + 1) / count - value
            let below = value - Double(index) / count
            largest = max(largest, above, below)
        }
        return largest
    }

    /// Critical value of D at significance `alpha` for `count` samples: the asymptotic
    /// c(α) = √(−ln(α/2)/2) with Stephens' finite-sample correction √n + 0.12 + 0.11/√n.
    static func criticalValue(count: Int, alpha: Double) -> Double {
        let root = Double(count).squareRoot()
        return (-log(alpha / 2) / 2).squareRoot() / (root + 0.12 + 0.11 / root)
    }
}
