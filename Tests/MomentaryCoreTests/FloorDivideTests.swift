import MomentaryCore
import Testing

@Suite("Floor division")
struct FloorDivideTests {
    @Test("rounds toward negative infinity with a remainder in 0..<divisor, before 1970 too")
    func floorDivision() {
        #expect(WallClock.floorDivide(0, 86_400) == (0, 0))
        #expect(WallClock.floorDivide(86_399, 86_400) == (0, 86_399))
        #expect(WallClock.floorDivide(86_400, 86_400) == (1, 0))
        #expect(WallClock.floorDivide(-1, 86_400) == (-1, 86_399), "one second before 1970 is on 31 December 1969")
        #expect(WallClock.floorDivide(-86_400, 86_400) == (-1, 0))
        #expect(WallClock.floorDivide(-86_401, 86_400) == (-2, 86_399))
    }
}
