"""The pure part of the browser layer: screen models, view models and
what they keep (standard library, core, ai and registry only; no js)."""
