"""The research API from a researcher's side: a personal access token made on the website, shown
once, and the Python snippet of docs/research-api.md run as written against the server."""
import os
import re
import secrets
import subprocess
import sys

from selenium.webdriver.common.by import By

from harness import wait_until

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "research-api.md")
EMAIL = "scripts@example.org"


def python_snippet():
    with open(DOC) as file:
        return re.search(r"```python\n(.*?)```", file.read(), re.S).group(1)


def test_a_token_made_on_the_website_runs_the_documented_python_snippet(chromium, server, screenshot, axe_check):
    driver = chromium.driver
    password = secrets.token_urlsafe(18)
    server.cli("researchers", "create", "--email", EMAIL, "--role", "developer", "--name", "Scripts", "--password=" + password)
    chromium.clear_site_data()
    driver.get(server.origin + "/signin")
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "signing in")

    driver.get(server.origin + "/account")
    driver.find_element(By.LINK_TEXT, "Personal access tokens").click()
    wait_until(lambda: driver.current_url.endswith("/account/tokens"), 10, "the tokens page")
    axe_check(driver, "access-tokens")
    driver.find_element(By.ID, "name").send_keys("nightly download")
    driver.find_element(By.CSS_SELECTOR, "input[name='readOnly']").click()
    driver.find_element(By.XPATH, "//main//form//button[normalize-space()='Create token']").click()
    wait_until(lambda: driver.find_elements(By.ID, "new-token"), 10, "the new token")
    token = driver.find_element(By.ID, "new-token").text
    assert token.startswith("mom_")
    screenshot("website-access-tokens")
    axe_check(driver, "access-tokens-created")
    assert "nightly download" in driver.page_source and "read only" in driver.page_source

    environment = dict(os.environ, MOMENTARY_URL=server.origin, MOMENTARY_TOKEN=token)
    run = subprocess.run([sys.executable, "-c", python_snippet()], env=environment, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    # The session's server holds other tests' studies too; the demo study is among them.
    assert "demo" in run.stdout.splitlines()[0].removeprefix("studies: ").split(", "), run.stdout
    assert re.search(r"responses: \d+ columns: ", run.stdout), run.stdout

    driver.get(server.origin + "/account/tokens")
    driver.find_element(By.CSS_SELECTOR, "button[aria-label='Revoke nightly download']").click()
    wait_until(lambda: "revoked" in driver.page_source, 10, "the token to show as revoked")
    again = subprocess.run([sys.executable, "-c", python_snippet()], env=environment, capture_output=True, text=True, timeout=120)
    assert again.returncode != 0 and "401" in again.stderr
