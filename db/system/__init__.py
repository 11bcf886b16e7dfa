"""This machine: where the library and the bundled files are, writing files safely, giving memory back."""
