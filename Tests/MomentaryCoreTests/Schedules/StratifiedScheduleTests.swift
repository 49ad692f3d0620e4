import Foundation
import Testing
@testable import MomentaryCore

@Suite("Stratified schedule")
struct StratifiedScheduleTests {
    let london = TimeZone(identifier: "Europe/London")!

    func settings(_ beeps: Int, _ start: String, _ end: String) -> SignallingSettings {
        SignallingSettings(beepsPerDay: beeps, start: TimeOfDay(start)!, end: TimeOfDay(end)!)
    }

    /// Many days of one setting; the count, window, hours and gap checked by the simulation, the
    /// blocks here. Returns each day's offsets within its blocks.
    func run(
        _ settings: SignallingSettings, gapMinutes: Int, days: Int, seed: UInt64
    ) throws -> (simulation: ScheduleSimulation, offsets: [[Int]], misplaced: [String]) {
        let dates = ScheduleSimulation.days(from: LocalDate("2026-01-01")!, count: days)
        let simulation = try ScheduleSimulation(
            settings: settings, gapMinutes: gapMinutes, zone: london, dates: dates, sampling: .stratified, seed: seed)
        var offsets: [[Int]] = []
        var misplaced: [String] = []
        for (window, beeps) in simulation.days {
            if let dayOffsets = StratifiedBlocks(window: window, count: settings.beepsPerDay).offsets(beeps) {
                offsets.append(dayOffsets)
            } else {
                misplaced.append("\(window.localDate): \(beeps)")
            }
        }
        return (simulation, offsets, misplaced)
    }

    @Test("Over 20,000 days: n beeps a day, one in each block, uniform within it, gaps kept")
    func uniformWithinBlocks() throws {
        // 08:00–20:00 leaves 710 minutes: three blocks of 14,200 seconds.
        let (simulation, offsets, misplaced) = try run(settings(3, "08:00", "20:00"), gapMinutes: 90, days: 20_000, seed: 7)
        #expect(simulation.problems.isEmpty, "\(simulation.problems.prefix(5))")
        #expect(misplaced.isEmpty, "\(misplaced.prefix(5))")
        #expect(offsets.count == 20_000)
        for (block, test) in StratifiedBlocks.uniformity(offsets, blockLength: 14_200).enumerated() {
            #expect(test.statistic < test.critical, "block \(block + 1): KS D = \(test.statistic), critical \(test.critical)")
        }
        // With equal blocks, a beep picked at random is uniform over the whole window as well.
        let critical = KolmogorovSmirnov.criticalValue(count: simulation.positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(simulation.positions) < critical)
    }

    @Test("Neighbours are linked by a shift (u₂ − u₁) mod B uniform on 0 and the gap to B − 1")
    func linkBetweenNeighbours() throws {
        let gap = 90 * 60
        let block = 14_200
        let (_, offsets, _) = try run(settings(3, "08:00", "20:00"), gapMinutes: 90, days: 10_000, seed: 8)
        let shifts = offsets.flatMap { day in zip(day, day.dropFirst()).map { (($1 - $0) % block + block) % block } }
        #expect(shifts.allSatisfy { $0 == 0 || $0 >= gap })
        // 0 stands for a whole block (B), so the shifts number B − g + 1 values from g to B.
        let positions = shifts.map { Double(($0 == 0 ? block : $0) - gap) / Double(block - gap + 1) }
        let critical = KolmogorovSmirnov.criticalValue(count: positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(positions) < critical)
    }

    @Test("The block test has power: naive sampling (uniform per block, a beep redrawn while too close) fails it")
    func naiveSamplingFails() {
        // The same window as above in seconds: 42,600 seconds, three blocks, a 90-minute gap.
        let blocks = StratifiedBlocks(length: 42_600, count: 3)
        let gap = 90 * 60
        var generator = Xoshiro256StarStar(seed: 7)
        var naive: [[Int]] = []
        var exact: [[Int]] = []
        for _ in 0..<20_000 {
            var beeps: [Int] = []
            for index in 0..<blocks.count {
                var beep: Int
                repeat {
                    beep = blocks.start(index) + Int.random(in: 0..<blocks.blockLength, using: &generator)
                } while beeps.last.map { beep - $0 < gap } ?? false
                beeps.append(beep)
            }
            naive.append(blocks.offsets(beeps)!)
            let drawn = StratifiedSampling.offsets(count: 3, length: 42_600, gap: gap, using: &generator)
            exact.append(blocks.offsets(drawn)!)
        }
        let naiveTests = StratifiedBlocks.uniformity(naive, blockLength: blocks.blockLength)
        // Redrawing pushes the second beep late in its block, away from the first.
        #expect(naiveTests[1].statistic > naiveTests[1].critical, "naive block 2: KS D = \(naiveTests[1].statistic)")
        #expect(StratifiedBlocks.uniformity(exact, blockLength: blocks.blockLength).allSatisfy { $0.statistic < $0.critical })
    }

    @Test("Gap 0: neighbouring offsets are independent (the shift is uniform over the whole block)")
    func zeroGap() throws {
        let block = 14_200
        let (simulation, offsets, misplaced) = try run(settings(3, "08:00", "20:00"), gapMinutes: 0, days: 20_000, seed: 9)
        #expect(simulation.problems.isEmpty && misplaced.isEmpty)
        #expect(StratifiedBlocks.uniformity(offsets, blockLength: block).allSatisfy { $0.statistic < $0.critical })
        let shifts = offsets.flatMap { day in zip(day, day.dropFirst()).map { Double((($1 - $0) % block + block) % block) } }
        let positions = shifts.map { $0 / Double(block) }
        let critical = KolmogorovSmirnov.criticalValue(count: positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(positions) < critical)
    }

    @Test("Gap equal to the block: every beep at the same offset, exactly one block apart, still uniform")
    func gapEqualToBlock() throws {
        // 08:00–09:15 leaves 65 minutes: five blocks of 13 minutes, and a 13-minute gap.
        let (simulation, offsets, misplaced) = try run(settings(5, "08:00", "09:15"), gapMinutes: 13, days: 4_000, seed: 3)
        #expect(simulation.problems.isEmpty && misplaced.isEmpty)
        #expect(offsets.allSatisfy { Set($0).count == 1 })
        #expect(simulation.days.allSatisfy { day in
            zip(day.beeps, day.beeps.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 780 }
        })
        let critical = KolmogorovSmirnov.criticalValue(count: offsets.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(offsets.map { Double($0[0]) / 780 }) < critical)
    }

    @Test("Seconds that do not divide evenly: blocks of ⌊L/n⌋ seconds at ⌊k·L/n⌋, each beep uniform in its own",
          arguments: [(1_000, 3, 300), (1_000, 3, 333), (1_003, 4, 250), (1_003, 4, 0)])
    func unevenLength(length: Int, count: Int, gap: Int) {
        let blocks = StratifiedBlocks(length: length, count: count)
        var generator = Xoshiro256StarStar(seed: UInt64(length + count + gap))
        var days: [[Int]] = []
        var misplaced = 0
        var shortGaps = 0
        for _ in 0..<20_000 {
            let beeps = StratifiedSampling.offsets(count: count, length: length, gap: gap, using: &generator)
            if zip(beeps, beeps.dropFirst()).contains(where: { $1 - $0 < gap }) { shortGaps += 1 }
            if let offsets = blocks.offsets(beeps) { days.append(offsets) } else { misplaced += 1 }
        }
        #expect(misplaced == 0 && shortGaps == 0)
        #expect(StratifiedBlocks.uniformity(days, blockLength: blocks.blockLength).allSatisfy { $0.statistic < $0.critical })
    }

    @Test("The same seed gives the same stratified days; uniform sampling gives others")
    func reproducible() throws {
        func schedule(_ sampling: SamplingMethod, seed: UInt64) throws -> [Date] {
            var generator = Xoshiro256StarStar(seed: seed)
            return try (0..<50).flatMap { offset in
                try RandomSchedule.beeps(
                    on: LocalDate("2026-03-25")!.adding(days: offset), settings: settings(3, "08:00", "20:00"),
                    minimumGapMinutes: 90, timeZone: london, sampling: sampling, using: &generator)
            }
        }
        #expect(try schedule(.stratified, seed: 7) == schedule(.stratified, seed: 7))
        #expect(try schedule(.stratified, seed: 7) != schedule(.uniform, seed: 7))
    }
}
