import AsyncHTTPClient
import Foundation

extension EnvironmentSettings {
    /// The provider chosen, or nil when enrichment is off. `serve --demo` without a choice uses
    /// the fixture provider, so the demo's located responses gain an environment with no key.
    func makeProvider(demo: Bool, client: HTTPClient) -> (any EnvironmentProvider)? {
        let choice: ProviderChoice = !providerChosen && demo ? .fixture : provider
        switch choice {
        case .none: return nil
        case .fixture: return FixtureEnvironmentProvider()
        case .openMeteo: return OpenMeteoProvider(settings: openMeteo, client: client)
        }
    }
}
