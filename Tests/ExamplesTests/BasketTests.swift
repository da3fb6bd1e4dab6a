import Testing
import PersistTestSupport

@Suite("Basket example")
struct BasketTests {
    @Test("configures in a child store, merges on confirm, discards on cancel, reports conflicts")
    func runs() throws {
        let output = try ProductRunner.run("Basket")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "while configuring, the child sees: 2 × large Margherita (olives, basil) at 12.0",
            "while configuring, the basket holds: empty",
            "after confirming, the basket holds: 2 × large Margherita (olives, basil) at 12.0",
            "configuring a drink, the child sees: 2 × large Margherita (olives, basil) at 12.0; 1 × small Lemonade (ice) at 2.5",
            "after cancelling, the basket holds: 2 × large Margherita (olives, basil) at 12.0",
            "merge refused: conflict on BasketLine/\"line-1\"",
            "after the refused merge, the basket holds: 2 × large Margherita (olives, basil) at 11.5",
            "after keeping the price update, the basket holds: 2 × large Margherita (olives, basil) at 11.5",
        ])
    }
}
