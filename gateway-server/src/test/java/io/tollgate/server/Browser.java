package io.tollgate.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through Debian's chromedriver, both named by path so that
 * Selenium never looks for (or downloads) a browser of its own. A test using it is skipped, with
 * the reason, on a machine without them ({@code apt-get install chromium chromium-driver}).
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Where the screenshots go: the module's build directory. */
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts a headless Chromium, or skips the test when Chromium or chromedriver is missing. */
    static Browser start() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the console's browser tests need Debian's chromium and chromium-driver ("
                        + CHROMIUM + ", " + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--no-first-run", "--disable-extensions", "--disable-background-networking");
        return new Browser(new ChromeDriver(service, options));
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    /**
     * The attribute {@code name} of the first element matching {@code css}, or null, read in one
     * script: the console redraws its tables each second, so an element found earlier may be gone.
     */
    String attribute(String css, String name) {
        return (String) driver.executeScript(
                "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css, name);
    }

    /** The text of the first element matching {@code css}, or null, read in one script. */
    String text(String css) {
        return (String) driver.executeScript(
                "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css);
    }

    /** The value of the form field matching {@code css}, or null, read in one script. */
    String value(String css) {
        return (String) driver.executeScript(
                "const e = document.querySelector(arguments[0]); return e ? e.value : null;", css);
    }

    /**
     * Clicks the first element matching {@code css} in one script: a button of a table the page
     * redraws may be replaced between finding it and clicking it.
     */
    void click(String css) {
        driver.executeScript("document.querySelector(arguments[0]).click();", css);
    }

    /** The computed style property of the first element matching {@code css}, or null. */
    String style(String css, String property) {
        return (String) driver.executeScript("const e = document.querySelector(arguments[0]);"
                + " return e ? getComputedStyle(e).getPropertyValue(arguments[1]) : null;", css, property);
    }

    /** Whether every element matching {@code css} has class {@code cls}, and there is at least one. */
    boolean allHaveClass(String css, String cls) {
        return (Boolean) driver.executeScript("const rows = [...document.querySelectorAll(arguments[0])];"
                + " return rows.length > 0 && rows.every(r => r.classList.contains(arguments[1]));", css, cls);
    }

    /** Waits up to {@code limit} for {@code condition}; fails with {@code what} when it never holds. */
    void await(String what, Duration limit, java.util.function.BooleanSupplier condition) {
        new WebDriverWait(driver, limit, Duration.ofMillis(50)).withMessage(what).until(d -> condition.getAsBoolean());
    }

    /** Shows a tab of the console. */
    void tab(String name) {
        find("#tabs button[data-tab='" + name + "']").click();
    }

    /** Confirms the console's confirmation dialog. */
    void confirm() {
        await("the confirmation dialog", Duration.ofSeconds(5), () -> find("#confirm").isDisplayed());
        find("#confirm-yes").click();
    }

    /** Writes a PNG of the page to {@link #SCREENSHOTS} and returns where. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
        Path target = SCREENSHOTS.resolve(name + ".png");
        Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
