/// The one version string of Herald: `heraldd --version`, `heraldctl --version`.
public enum HeraldVersion {
    public static let string = "0.1.0"
}
