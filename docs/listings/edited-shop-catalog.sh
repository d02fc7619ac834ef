# Context "edited-shop-catalog" (in Examples/Shop): edited.json, the shop's catalog with two
# changes: the base code 401 (sessionExpired) flagged retryable, and a new entry 20003
# (couponExpired) in module cart.
python3 - <<'PYTHON'
import json
with open("Sources/ShopErrors/catalog.json", encoding="utf-8") as f:
    catalog = json.load(f)
for entry in catalog["base"]:
    if entry["code"] == 401:
        entry["flags"].insert(0, "retryable")
for module in catalog["modules"]:
    if module["name"] == "cart":
        module["codes"].append({"code": 20003, "name": "couponExpired", "flags": ["showUser"],
                                "message": {"en": "This coupon has expired."}})
with open("edited.json", "w", encoding="utf-8") as f:
    json.dump(catalog, f, ensure_ascii=False, indent=2)
PYTHON
