"""Consolidation (docs/consolidation.md): near-duplicates merged, contradictions among stored beliefs
made pending conflicts, corroboration counted, related events digested, duplicate entities merged,
and what is past retention pruned, per tenant, with a dry run that answers exactly what a forced run
then does. The names below are what the API and the job queue use."""
from graph.consolidation.job import KIND, check_params, handler, report_dict
from graph.consolidation.model import Change, Counts, Defaults, Report, Request, Steps, Thresholds, check_request
from graph.consolidation.service import ConsolidationService
from graph.consolidation.summarise import Extractive, LlmSummariser, Summariser

__all__ = ["KIND", "Change", "ConsolidationService", "Counts", "Defaults", "Extractive", "LlmSummariser",
           "Report", "Request", "Steps", "Summariser", "Thresholds", "check_params", "check_request", "handler",
           "report_dict"]
