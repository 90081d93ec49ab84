/// The one version string of Herald: `heraldd --version`, `heraldctl --version`.
package enum HeraldVersion {
    package static let string = "0.1.0"
}
