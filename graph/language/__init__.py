"""Pure text helpers several packages share: sentences (sentences.py), time expressions resolved
against a reference instant into windows (times.py), and recurrences as RFC 5545 RRULEs
(recurrence.py). No I/O; dates and rules are python-dateutil's."""
from graph.language.recurrence import Recurrence, find_recurrence
from graph.language.sentences import Sentence, split_sentences
from graph.language.times import TimeMention, Window, find_times, window_of

__all__ = ["Recurrence", "Sentence", "TimeMention", "Window", "find_recurrence", "find_times", "split_sentences",
           "window_of"]
