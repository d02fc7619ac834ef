# Context "edited-catalog": edited.json, catalog/default.json with two changes: the base code
# 11001 (tokenExpire) flagged retryable, and a new entry 11210099 (newOne) in module studyGroup.
python3 - <<'PYTHON'
import json
with open("catalog/default.json", encoding="utf-8") as f:
    catalog = json.load(f)
for entry in catalog["base"]:
    if entry["code"] == 11001:
        entry["flags"].insert(0, "retryable")
for module in catalog["modules"]:
    if module["name"] == "studyGroup":
        module["codes"].append({"code": 11210099, "name": "newOne", "message": {"en": "A new code."}})
with open("edited.json", "w", encoding="utf-8") as f:
    json.dump(catalog, f, ensure_ascii=False, indent=2)
PYTHON
