"""One reader for the recognizers' data files: JSON validated by a pydantic model, any fault one
line naming the file and the field (the error class is the caller's). The reader itself lives on
the reading floor (core/engine/reading/data_file.py), which the language packs read through too."""
from core.engine.reading.data_file import M, load_model  # noqa: F401 (the rules' import path)
