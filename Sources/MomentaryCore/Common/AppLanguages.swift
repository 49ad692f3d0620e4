/// The languages the participant web app speaks: one catalogue each in
/// `Sources/MomentaryServer/Public/app/i18n/<tag>.json`, and the same list as `SUPPORTED` in
/// `app/js/i18n.js`. `Tests/Browser/test_catalogues.py` checks that all three agree.
public enum AppLanguages {
    public static let supported = ["en", "de", "fr", "es", "nl", "zh-Hans", "ar"]
}
