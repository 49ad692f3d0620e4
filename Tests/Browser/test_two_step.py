"""Two-step sign-in as a researcher meets it: setting it up from the account page (the QR code,
drawn by the server, scans with zxing-cpp to the otpauth URI of the key written beside it), then
signing in with a code from pyotp, an authenticator written apart from the server's. Both new
pages are checked with axe-core."""
import secrets
from urllib.parse import parse_qs, unquote, urlparse

import pyotp
from selenium.webdriver.common.by import By

from harness import wait_until
from qr_decode import decode_qr_svg


def test_set_up_and_sign_in_with_a_code(chromium, server, screenshot, axe_check):
    email, password = "two.step@example.org", secrets.token_urlsafe(18)
    server.cli("researchers", "create", "--email", email, "--role", "developer", "--name", "Two Step", "--password=" + password)
    driver = chromium.driver
    chromium.clear_site_data()
    sign_in(driver, server, email, password)
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "sign-in to lead to the studies")

    driver.get(server.origin + "/account")
    driver.find_element(By.LINK_TEXT, "Set up two-step sign-in").click()
    wait_until(lambda: driver.current_url.endswith("/account/two-step"), 15, "the set-up page")
    secret = driver.find_element(By.ID, "two-step-secret").text.replace(" ", "")
    image = driver.find_element(By.ID, "two-step-qr")
    wait_until(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
               15, "the QR code to load")
    svg = driver.execute_async_script(
        "const done = arguments[1]; fetch(arguments[0]).then(r => r.text()).then(done, e => done(String(e)))",
        image.get_attribute("src"))
    uri = urlparse(decode_qr_svg(svg))
    assert (uri.scheme, uri.netloc, unquote(uri.path)) == ("otpauth", "totp", "/Momentary:" + email)
    assert parse_qs(uri.query) == {"secret": [secret], "issuer": ["Momentary"], "algorithm": ["SHA1"],
                                   "digits": ["6"], "period": ["30"]}
    screenshot("website-two-step-set-up")
    axe_check(driver, "two-step sign-in set-up")

    authenticator = pyotp.TOTP(secret)
    driver.find_element(By.ID, "code").send_keys("000000" if authenticator.now() != "000000" else "111111")
    driver.find_element(By.CSS_SELECTOR, "#two-step-confirm button").click()
    wait_until(lambda: driver.find_elements(By.ID, "code-problem"), 15, "a wrong code to be refused")
    axe_check(driver, "two-step sign-in set-up with a wrong code")
    driver.find_element(By.ID, "code").send_keys(authenticator.now())
    driver.find_element(By.CSS_SELECTOR, "#two-step-confirm button").click()
    wait_until(lambda: driver.find_elements(By.ID, "recovery-codes"), 15, "the recovery codes")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#recovery-codes li")) == 10
    screenshot("website-two-step-recovery-codes")
    axe_check(driver, "two-step sign-in recovery codes")

    driver.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
    wait_until(lambda: driver.current_url.endswith("/signin"), 15, "signing out")
    sign_in(driver, server, email, password)
    wait_until(lambda: driver.current_url.endswith("/signin/code"), 15, "the code to be asked for")
    screenshot("website-sign-in-code")
    axe_check(driver, "sign-in code")
    # The code used to switch it on cannot be used again: wait for the next one.
    used = authenticator.now()
    wait_until(lambda: authenticator.now() != used, 35, "the next 30-second code")
    driver.find_element(By.ID, "code").send_keys(authenticator.now())
    driver.find_element(By.CSS_SELECTOR, "form[action='/signin/code'] button").click()
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "the code to sign in")


def sign_in(driver, server, email, password):
    driver.get(server.origin + "/signin")
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
