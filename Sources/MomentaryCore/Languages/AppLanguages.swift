/// The languages the participant app has a message catalogue for (`Public/app/i18n/<tag>.json`;
/// a test compares this list with those files). A study may offer only these: a participant must
/// never meet the app's own words in another language than the study's texts.
public enum AppLanguages {
    public static let supported = ["en", "de", "fr", "es", "nl", "zh-Hans", "ar"]
}
