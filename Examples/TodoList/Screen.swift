/// The to-do screen: prints each list the live query delivers, and lets the program wait for the
/// screen to have shown a number of them.
actor Screen {
    private var renders = 0

    func render(_ todos: [Todo]) {
        renders += 1
        print("open:", todos.map(\.title).joined(separator: ", "))
    }

    /// Returns once the screen has shown `count` lists.
    func waitForRender(_ count: Int) async throws {
        while renders < count { try await Task.sleep(for: .milliseconds(2)) }
    }
}
