"""kensnap vision: pixels of a photo or screenshot → a puzzle with confidences."""
