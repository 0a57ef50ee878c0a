"""The README's two commands, CI and the set-up script stay in step."""
import re

from conftest import REPO


def readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    return [line for block in blocks[:2] for line in block.splitlines() if line and not line.startswith("#")]


def test_ci_runs_the_readme_test_command_verbatim():
    run_cmd, test_cmd = readme_commands()
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == [test_cmd]
    # The tests need the models, so their command fits them first; the app starts without them and
    # fits them in the background (ui/app_models.py), so a newcomer waits minutes, not hours.
    assert "pytest" in test_cmd and test_cmd.startswith("bash .ci/setup && ")
    assert run_cmd.startswith("bash .ci/setup --no-fit && ")


def test_setup_refuses_an_unknown_option_before_doing_anything():
    import subprocess
    done = subprocess.run(["bash", str(REPO / ".ci" / "setup"), "--fast"], capture_output=True, text=True)
    assert done.returncode == 2 and "unknown option --fast" in done.stderr


def test_the_font_packages_the_renderer_uses_are_installed_by_setup():
    from ui.fonts import FONT_PACKAGES
    setup = (REPO / ".ci" / "setup").read_text()
    listed = set(re.search(r"SYSTEM_PACKAGES=\((.*?)\)", setup, re.S).group(1).split())
    assert set(FONT_PACKAGES) <= listed
    assert {"tesseract-ocr", "python3-venv"} <= listed


def test_the_bundled_sample_of_the_run_command_exists():
    run_cmd, _ = readme_commands()
    for word in run_cmd.split():
        if word.startswith("samples/"):
            assert (REPO / word).is_file()
