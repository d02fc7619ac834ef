// Catalog files used by several tests.

enum CatalogFixtures {
    /// A valid small catalog: success 200, one base code, one module `billing` at 500000...500999.
    static let small = """
        {
          "format": "swifterr-catalog/1",
          "name": "small",
          "success": {"code": 200, "name": "ok", "message": {"en": "OK"}},
          "base": [
            {"code": 401, "name": "unauthorized", "flags": ["reauthenticate"],
             "message": {"en": "Sign in \\"again\\"\\\\now??=", "zh-Hans": "请重新登录"}}
          ],
          "modules": [
            {"name": "billing", "title": {"en": "Billing"}, "ranges": [[500000, 500999]],
             "codes": [
               {"code": 500001, "name": "quotaExceeded", "flags": ["retryable", "fatal"],
                "message": {"en": "Quota\\nexceeded\\ttab \\u00e9 */ end"}},
               {"code": 500002, "name": "default", "message": {"en": "A case named like a keyword"}}
             ]},
            {"name": "big", "ranges": [[-9223372036854775808, -9000000000000000000], [9000000000000000000, 9223372036854775807]],
             "codes": [{"code": -9223372036854775808, "name": "lowest", "flags": ["app4"], "message": {"en": "min"}},
                       {"code": 9223372036854775807, "name": "highest", "message": {"en": "max"}}]}
          ]
        }
        """
}
