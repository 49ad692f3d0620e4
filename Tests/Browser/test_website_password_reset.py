"""A researcher who forgot their password, in Chromium: the forgot form, the email a real SMTP
server (aiosmtpd) took, the link in it, a new password, and signing in with it."""
import re
import secrets

from selenium.webdriver.common.by import By

from harness import wait_until

EMAIL = "forgetful@example.org"


def test_a_researcher_resets_a_forgotten_password_by_email(chromium, server, mail_sink, screenshot, axe_check):
    driver = chromium.driver
    server.cli("researchers", "create", "--email", EMAIL, "--role", "researcher", "--name", "Forgetful",
               "--password=" + secrets.token_urlsafe(18))
    chromium.clear_site_data()
    driver.get(server.origin + "/signin")
    driver.find_element(By.LINK_TEXT, "Forgot your password?").click()
    wait_until(lambda: driver.current_url.endswith("/signin/forgot"), 10, "the forgot page")
    axe_check(driver, "password-forgot")
    screenshot("website-password-forgot")
    before = len(mail_sink.messages())
    driver.find_element(By.ID, "email").send_keys(EMAIL.upper())
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until(lambda: "is on its way" in driver.page_source, 10, "the page to say a link is on its way")

    wait_until(lambda: len(mail_sink.messages()) > before, 20, "the reset email to reach the SMTP server")
    mail = mail_sink.messages()[-1]
    assert mail["rcpt_tos"] == [EMAIL]
    assert mail["subject"] == "Reset your Momentary password"
    link = re.search(r"http://\S+/signin/reset\?token=\w+", mail["body"]).group(0)
    assert link.startswith(server.origin)

    driver.get(link)
    axe_check(driver, "password-reset")
    screenshot("website-password-reset")
    new_password = "a brand new passphrase"
    driver.find_element(By.ID, "password").send_keys(new_password)
    driver.find_element(By.ID, "confirm").send_keys(new_password)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until(lambda: "reset=1" in driver.current_url, 10, "the sign-in page after the reset")
    assert "Your password is changed" in driver.page_source

    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(new_password)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "signing in with the new password")

    chromium.clear_site_data()
    driver.get(link)
    assert "This link does not work" in driver.page_source
    axe_check(driver, "password-reset-used")
