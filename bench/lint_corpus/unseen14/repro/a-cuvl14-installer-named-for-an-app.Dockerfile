# Class a (t08): an installer named for the application it sets up (install-whisper.sh), not
# for a framework. cuvet counts a script as an unreadable install only when its name holds
# install/build/setup/compile AND one of the frameworks' name_words (rules/frameworks.json);
# "whisper" is none, so the script is not seen and CUVL14 lands on the later poetry install.
# Expected: CUVL14 at line 8. main de73f6f: CUVL14 at line 10 (install-torch.sh: line 8).
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY scripts/install-audio-whisper.sh /usr/local/bin/install-audio-whisper.sh
RUN install-audio-whisper.sh
COPY pyproject.toml poetry.lock ./
RUN pip3 install poetry==1.8.3 && poetry install --no-root
