import MomentaryCore
/// Draws the daily response rate as an SVG bar chart on the server, so the page needs no script.
enum ResponseRateChart {
    static let width = 640.0
    static let height = 200.0
    static let margin = 30.0

    /// Markup for the chart; every value drawn is a number or an escaped date, so it is safe to embed.
    static func svg(_ days: [ComplianceReport.Day]) -> String {
        guard !days.isEmpty else { return "" }
        let plotWidth = width - 2 * margin, plotHeight = height - 2 * margin
        let slot = plotWidth / Double(days.count)
        var parts: [String] = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="Daily response rate" class="chart">"##,
            ##"<line x1="\##(margin)" y1="\##(height - margin)" x2="\##(width - margin)" y2="\##(height - margin)" stroke="#888"/>"##,
            ##"<text x="2" y="\##(margin + 4)" font-size="10">100%</text><text x="10" y="\##(height - margin)" font-size="10">0%</text>"##,
        ]
        for (index, day) in days.enumerated() {
            let rate = day.rate ?? 0
            let barHeight = plotHeight * rate
            let x = margin + Double(index) * slot + slot * 0.1
            let y = height - margin - barHeight
            let label = "\(HTMLText.escape(day.date)): \(day.answered) of \(day.delivered) answered"
            parts.append(
                ##"<rect x="\##(number(x))" y="\##(number(y))" width="\##(number(slot * 0.8))" height="\##(number(barHeight))" fill="#3a7bd5"><title>\##(label)</title></rect>"##)
        }
        if let first = days.first, let last = days.last {
            parts.append(##"<text x="\##(margin)" y="\##(height - 8)" font-size="10">\##(HTMLText.escape(first.date))</text>"##)
            parts.append(##"<text x="\##(width - margin)" y="\##(height - 8)" font-size="10" text-anchor="end">\##(HTMLText.escape(last.date))</text>"##)
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
