"""What every part of the window uses: translation, plain text for Qt, background work, the theme."""
