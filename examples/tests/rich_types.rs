//! The rich-types example tools called as a model calls them: nested and recursive arguments,
//! enums in every serde tagging form, `null` for what is optional, and the text or structured
//! content the caller gets back.

use serde_json::{Value, json};
use toolhook_examples as _;
use toolhook_runtime::testing::{assert_plugins_valid, invoke};

/// The text of a call that must succeed.
async fn text(tool: &str, arguments: Value) -> String {
    let result = invoke(tool, arguments).await;
    assert!(result.success, "{tool} failed: {}", result.error_message);
    result.content
}

/// The structured content of a call that must succeed.
async fn structured(tool: &str, arguments: Value) -> Value {
    let result = invoke(tool, arguments).await;
    assert!(result.success, "{tool} failed: {}", result.error_message);
    result.structured_content().cloned().unwrap_or_else(|| panic!("{tool} returned no structured content"))
}

/// The error message of a call that must fail.
async fn error(tool: &str, arguments: Value) -> String {
    let result = invoke(tool, arguments).await;
    assert!(!result.success, "{tool} succeeded: {}", result.content);
    result.error_message
}

fn eur(cents: u64) -> Value {
    json!({"cents": cents, "currency": "EUR"})
}

fn berlin() -> Value {
    json!({"name": "Ada Lovelace", "street": "Unter den Linden 1", "postal_code": "10117", "city": "Berlin", "country": "DE"})
}

#[test]
fn every_rich_type_tool_composes() {
    assert_plugins_valid();
}

#[tokio::test]
async fn plan_project_orders_open_tasks_by_priority_after_their_dependencies() {
    let project = json!({
        "projectName": "Website relaunch",
        "owner": {"name": "Ada Lovelace", "email": "ada@example.com", "contact": {"phone": "+4930123456", "chatHandle": null}},
        "startsAt": "2025-03-03T09:00:00Z",
        "milestones": [
            {"name": "Design", "dueOn": "2025-03-14", "tasks": [
                {"title": "Wireframes", "priority": "medium", "estimateHours": 6,
                 "assignee": {"name": "Bob Byte", "email": "bob@example.com"}},
                {"title": "Style guide", "priority": "low", "estimateHours": 4.5, "done": true},
                {"title": "Hero image", "priority": "high", "estimateHours": 3, "dependsOn": ["Wireframes"],
                 "assignee": {"name": "Cy Pixel", "email": "cy@example.com", "contact": {"chatHandle": "cy"}}},
            ]},
            {"name": "Build", "dueOn": null, "tasks": [
                {"title": "Landing page", "priority": "high", "estimateHours": 8, "dependsOn": ["Hero image", "Style guide"],
                 "assignee": null},
                {"title": "Analytics", "priority": "low", "estimateHours": 2.5},
            ]},
        ],
    });
    let plan = structured("plan_project", json!({"project": project})).await;
    assert_eq!(
        plan,
        json!({
            "projectName": "Website relaunch",
            "order": [
                {"milestone": "Design", "title": "Wireframes", "priority": "medium", "owner": "Bob Byte", "hours": 6.0},
                {"milestone": "Design", "title": "Hero image", "priority": "high", "owner": "Cy Pixel", "hours": 3.0},
                {"milestone": "Build", "title": "Landing page", "priority": "high", "owner": "Ada Lovelace", "hours": 8.0},
                {"milestone": "Build", "title": "Analytics", "priority": "low", "owner": "Ada Lovelace", "hours": 2.5},
            ],
            "hoursByPriority": {"high": 11.0, "low": 2.5, "medium": 6.0},
            "unassigned": ["Landing page", "Analytics"],
            "people": ["ada@example.com", "bob@example.com", "cy@example.com"],
        })
    );

    let circle = json!({"project": {
        "projectName": "Loop", "owner": {"name": "Ada", "email": "ada@example.com"}, "startsAt": "2025-03-03T09:00:00Z",
        "milestones": [{"name": "All", "tasks": [
            {"title": "Egg", "priority": "high", "estimateHours": 1, "dependsOn": ["Hen"]},
            {"title": "Hen", "priority": "high", "estimateHours": 1, "dependsOn": ["Egg"]},
        ]}],
    }});
    assert_eq!(error("plan_project", circle).await, "these tasks depend on each other in a circle: Egg, Hen");

    let unknown = json!({"project": {
        "projectName": "X", "owner": {"name": "Ada", "email": "ada@example.com"}, "startsAt": "2025-03-03T09:00:00Z",
        "milestones": [{"name": "M", "tasks": [{"title": "Task", "priority": "urgent", "estimateHours": 1}]}],
    }});
    assert_eq!(
        error("plan_project", unknown).await,
        "Tool plan_project failed: InvalidArguments: project.milestones[0].tasks[0].priority: expected one of \
         \"high\", \"medium\", \"low\", got string \"urgent\""
    );
}

#[tokio::test]
async fn spread_hours_fills_days_by_the_overflow_rule() {
    assert_eq!(
        text("spread_hours", json!({"hours": [6, 4, 5.5], "week": "Week 12"})).await,
        "Week 12\nDay 1: task 1 6 h, task 2 2 h\nDay 2: task 2 2 h, task 3 5.5 h"
    );
    assert_eq!(
        text("spread_hours", json!({"hours": [6, 4, 5.5], "days": 4, "overflow": "next_day", "week": null})).await,
        "Day 1: task 1 6 h\nDay 2: task 2 4 h\nDay 3: task 3 5.5 h"
    );
    assert_eq!(
        error("spread_hours", json!({"hours": [6, 4, 5.5], "daily_capacity": "3", "days": 4})).await,
        "15.5 h of work do not fit in 4 days of 3 h"
    );
    assert_eq!(
        error("spread_hours", json!({"hours": [1], "days": 7})).await,
        "Tool spread_hours failed: InvalidArguments: days: expected one of 4, 5, 6, got integer 7"
    );
}

#[tokio::test]
async fn label_tasks_counts_each_task_and_label_once() {
    let arguments = json!({"task_ids": [9, 3, 7, 3], "labels": ["urgent", "backend", "urgent"], "replace": true, "priority": "high"});
    assert_eq!(
        text("label_tasks", arguments).await,
        "Tasks 3, 7, 9 labelled backend, urgent instead of their labels, priority high."
    );
    assert_eq!(
        text("label_tasks", json!({"task_ids": [4], "labels": ["docs"], "priority": null})).await,
        "Tasks 4 labelled docs."
    );
    assert_eq!(
        error("label_tasks", json!({"task_ids": [], "labels": ["docs"]})).await,
        "give at least one task and one label"
    );
}

#[tokio::test]
async fn timesheet_totals_adds_up_rows_of_rows() {
    let arguments = json!({"people": ["ada", "bob"], "hours": [[8, 7.5, 8], [6, 6, 6.5]]});
    assert_eq!(text("timesheet_totals", arguments).await, "ada: 23.5 h\nbob: 18.5 h\nTeam: 42 h");
    let arguments = json!({"people": ["ada"], "hours": [[8], [8]]});
    assert_eq!(error("timesheet_totals", arguments).await, "1 people but 2 rows of hours");
}

#[tokio::test]
async fn configure_webhook_reads_flattened_retry_settings_and_their_defaults() {
    let webhook = json!({
        "endpoint": "https://hooks.example.com/planner",
        "alertEmail": "ops@example.com",
        "events": ["task.created", "milestone.reached", "task.created"],
        "headers": {"X-Team": "web", "Authorization": "Bearer abc"},
        "secret": "0123456789abcdef",
        "activeFrom": "2025-04-01T00:00:00Z",
        "maxAttempts": 4,
        "backoffSeconds": 10,
    });
    assert_eq!(
        structured("configure_webhook", json!({"webhook": webhook})).await,
        json!({
            "endpoint": "https://hooks.example.com/planner",
            "events": ["milestone.reached", "task.created"],
            "retryDelaysSeconds": [10, 20, 40],
            "headerNames": ["Authorization", "X-Signature", "X-Team"],
            "alertEmail": "ops@example.com",
            "activeFrom": "2025-04-01T00:00:00Z",
        })
    );

    // Left out: the optional fields and the retry settings, which take their defaults.
    let minimal = json!({"endpoint": "https://hooks.example.com/p", "alertEmail": null, "events": ["task.created"], "secret": "0123456789abcdef"});
    assert_eq!(
        structured("configure_webhook", json!({"webhook": minimal})).await,
        json!({
            "endpoint": "https://hooks.example.com/p",
            "events": ["task.created"],
            "retryDelaysSeconds": [30, 60],
            "headerNames": ["X-Signature"],
        })
    );

    let eager = json!({"endpoint": "https://hooks.example.com/p", "events": ["task.created"], "secret": "0123456789abcdef", "backoffSeconds": 7});
    assert_eq!(
        error("configure_webhook", json!({"webhook": eager})).await,
        "backoffSeconds must be a multiple of 5 from 5 to 3600, not 7"
    );

    let plain =
        json!({"endpoint": "http://hooks.example.com/p", "events": ["task.created"], "secret": "0123456789abcdef"});
    assert_eq!(
        error("configure_webhook", json!({"webhook": plain})).await,
        "the endpoint must use https: http://hooks.example.com/p"
    );
}

#[tokio::test]
async fn record_event_takes_any_json_payload() {
    let event = json!({
        "eventType": "task.created",
        "occurredAt": "2025-03-03T10:15:00Z",
        "app": "planner",
        "appVersion": "1.4.2",
        "payload": {"estimateHours": 6, "title": "Wireframes"},
        "tags": ["q1", "design", "q1"],
    });
    assert_eq!(
        text("record_event", json!({"event": event, "note": {"by": "import"}})).await,
        "Logged task.created from planner 1.4.2 at 2025-03-03T10:15:00Z [design, q1]; payload fields: estimateHours, \
         title\nNote: {\"by\":\"import\"}"
    );
    let event = json!({"eventType": "app.started", "occurredAt": "2025-03-03T08:00:00Z", "app": "planner", "payload": "cold start"});
    assert_eq!(
        text("record_event", json!({"event": event, "note": null})).await,
        "Logged app.started from planner at 2025-03-03T08:00:00Z; payload fields: a single string value"
    );
}

#[tokio::test]
async fn merge_settings_reports_changed_and_added_settings() {
    let current = json!({
        "theme": {"value": "dark"},
        "beta": {"value": false},
        "max_upload_mb": {"value": 10, "locked": false},
        "languages": {"value": ["en"]},
        "region": {"value": "eu", "locked": true},
    });
    let overrides = json!({
        "beta": {"value": true},
        "languages": {"value": ["en", "de"]},
        "timezone": {"value": "Europe/Berlin"},
        "theme": {"value": "dark"},
    });
    assert_eq!(
        structured("merge_settings", json!({"current": current, "overrides": overrides})).await,
        json!({
            "settings": {
                "beta": {"value": true, "locked": false},
                "languages": {"value": ["en", "de"], "locked": false},
                "max_upload_mb": {"value": 10.0, "locked": false},
                "region": {"value": "eu", "locked": true},
                "theme": {"value": "dark", "locked": false},
                "timezone": {"value": "Europe/Berlin", "locked": false},
            },
            "changed": ["beta", "languages"],
            "added": ["timezone"],
        })
    );

    let arguments = json!({"current": current, "overrides": {"beta": {"value": "yes"}}, "strict": true});
    assert_eq!(error("merge_settings", arguments).await, "beta is a flag, not a text");
    let arguments = json!({"current": current, "overrides": {"region": {"value": "us"}}});
    assert_eq!(error("merge_settings", arguments).await, "region is locked");
}

#[tokio::test]
async fn triage_bugs_orders_by_integer_severity() {
    let reporter = json!({"name": "Dee Tester", "email": "dee@example.com", "contact": null});
    let bugs = json!([
        {"id": 12, "title": "Typo in footer", "severity": 1, "reporter": reporter, "environment": null},
        {"id": 15, "title": "Saving loses data", "severity": 3, "reporter": reporter,
         "steps": ["Open a task", "Edit the title", "Save"], "environment": {"browser": "Firefox 128", "os": "Linux"}},
        {"id": 9, "title": "Export button does nothing", "severity": 2, "reporter": reporter, "steps": ["Click export"]},
    ]);
    assert_eq!(
        text("triage_bugs", json!({"bugs": bugs})).await,
        "#15 critical: Saving loses data (3 steps, by Dee Tester on browser Firefox 128, os Linux)\n\
         #9 major: Export button does nothing (1 step, by Dee Tester)\n\
         #12 minor: Typo in footer (0 steps, by Dee Tester)"
    );
    let bad = json!([{"id": 1, "title": "Crash on save", "severity": 4, "reporter": reporter}]);
    assert_eq!(
        error("triage_bugs", json!({"bugs": bad})).await,
        "Tool triage_bugs failed: InvalidArguments: bugs[0].severity: severity 4 is not 1, 2 or 3"
    );
}

/// A three-level document outline.
fn guide() -> Value {
    json!({
        "heading": "Guide",
        "summary": "How to use the planner",
        "children": [
            {"heading": "Install", "children": [{"heading": "Linux"}, {"heading": "macOS", "summary": null}]},
            {"heading": "Use", "children": [
                {"heading": "Projects", "summary": "Milestones and tasks", "children": [{"heading": "Milestones"}, {"heading": "Tasks", "children": []}]},
            ]},
        ],
    })
}

#[tokio::test]
async fn outline_document_renders_a_recursive_outline() {
    assert_eq!(
        text("outline_document", json!({"outline": guide()})).await,
        "1. Guide — How to use the planner\n\
         \x20 1.1. Install\n\
         \x20   1.1.1. Linux\n\
         \x20   1.1.2. macOS\n\
         \x20 1.2. Use\n\
         \x20   1.2.1. Projects — Milestones and tasks\n\
         \x20     1.2.1.1. Milestones\n\
         \x20     1.2.1.2. Tasks"
    );
    assert_eq!(
        text("outline_document", json!({"outline": guide(), "max_depth": 2, "numbered": false})).await,
        "- Guide — How to use the planner\n  - Install\n    … 2 more\n  - Use\n    … 3 more"
    );
}

#[tokio::test]
async fn outline_stats_counts_headings_per_level() {
    let sections = guide()["children"].clone();
    assert_eq!(
        structured("outline_stats", json!({"sections": sections})).await,
        json!({"headings": 7, "per_level": [2, 3, 2], "leaves": ["Linux", "macOS", "Milestones", "Tasks"]})
    );
}

#[tokio::test]
async fn render_thread_follows_the_linked_replies() {
    let thread = json!({
        "author": "ada",
        "text": "Shall we ship on Friday?",
        "postedAt": "2025-03-03T09:00:00Z",
        "reactions": {"👍": 2, "🎉": 1},
        "reply": {
            "author": "bob",
            "text": "Only if the tests pass.",
            "postedAt": "2025-03-03T09:05:00Z",
            "reply": {"author": "cy", "text": "They do.", "postedAt": "2025-03-03T09:30:00Z", "reply": null},
        },
    });
    assert_eq!(
        text("render_thread", json!({"thread": thread})).await,
        "3 comments\n\
         ada at 2025-03-03T09:00:00Z: Shall we ship on Friday? (🎉 1, 👍 2)\n\
         bob at 2025-03-03T09:05:00Z: Only if the tests pass.\n\
         cy at 2025-03-03T09:30:00Z: They do."
    );
    let content = text("render_thread", json!({"thread": thread, "newest_first": true})).await;
    assert!(content.starts_with("3 comments\ncy at"), "{content}");
}

#[tokio::test]
async fn price_cart_combines_every_tagging_form() {
    let cart = json!({
        "items": [
            // Untagged quantities: a weight object, or a bare count.
            {"sku": "TEA-1001", "unit_price": eur(2400), "quantity": {"grams": 250}, "gift_wrap": {"paper": {"pattern": "stars"}}},
            {"sku": "CUP-2001", "unit_price": eur(950), "quantity": 3, "gift_wrap": "plain"},
            {"sku": "POT-3001", "unit_price": eur(4500), "quantity": 1, "gift_wrap": {"boxed": "Happy birthday!"},
             "notes": {"fragile": "cast iron lid"}},
        ],
        // Internally tagged.
        "discount": {"type": "buy_get_one_free", "sku": "CUP-2001", "buy": 2},
        // Adjacently tagged.
        "shipping": {"method": "post", "details": berlin()},
        // Externally tagged.
        "payment": {"card": {"last4": "4242", "holder": "Ada Lovelace"}},
    });
    assert_eq!(
        structured("price_cart", json!({"cart": cart})).await,
        json!({
            "lines": [
                {"sku": "TEA-1001", "total": eur(850)},
                {"sku": "CUP-2001", "total": eur(2850)},
                {"sku": "POT-3001", "total": eur(5000)},
            ],
            "subtotal": eur(8700),
            "discount": eur(950),
            "shipping": eur(595),
            "total": eur(8345),
            "summary": "post to Ada Lovelace, Berlin; EUR 83.45 charged to Ada Lovelace's card ending 4242",
        })
    );

    let cart = json!({
        "items": [{"sku": "TEA-1002", "unit_price": eur(1800), "quantity": 2, "gift_wrap": null}],
        "discount": {"type": "percent", "percent": 10},
        "shipping": {"method": "courier", "details": {"address": berlin(), "speed": "express"}},
        "payment": {"bank_transfer": "DE89370400440532013000"},
    });
    let quote = structured("price_cart", json!({"cart": cart})).await;
    assert_eq!(quote["total"], eur(5740));
    assert_eq!(
        quote["summary"],
        "express courier to Berlin; EUR 57.40 awaited by transfer from DE89370400440532013000"
    );

    let cart = json!({
        "items": [{"sku": "CUP-2001", "unit_price": eur(950), "quantity": 1}],
        "discount": null,
        "shipping": {"method": "pickup"},
        "payment": {"cash": {"tendered": eur(1000)}},
    });
    let quote = structured("price_cart", json!({"cart": cart})).await;
    assert_eq!(quote["summary"], "pickup at the shop; EUR 9.50 paid in cash, EUR 0.50 change");

    let mixed = json!({
        "items": [
            {"sku": "CUP-2001", "unit_price": eur(950), "quantity": 1},
            {"sku": "CUP-2002", "unit_price": {"cents": 1000, "currency": "USD"}, "quantity": 1},
        ],
        "shipping": {"method": "pickup"},
        "payment": {"cash": {"tendered": null}},
    });
    assert_eq!(error("price_cart", json!({"cart": mixed})).await, "CUP-2002 is priced in USD, the cart in EUR");

    let bad = json!({
        "items": [{"sku": "CUP-2001", "unit_price": eur(950), "quantity": "three"}],
        "shipping": {"method": "pickup"},
        "payment": {"cash": {}},
    });
    assert_eq!(
        error("price_cart", json!({"cart": bad})).await,
        "Tool price_cart failed: InvalidArguments: cart.items[0].quantity: data did not match any variant of \
         untagged enum Quantity"
    );
}

#[tokio::test]
async fn apply_discount_reads_each_internally_tagged_variant() {
    let subtotal = eur(4200);
    let cases = [
        (json!({"type": "percent", "percent": 25}), "EUR 10.50 off, EUR 31.50 to pay"),
        (json!({"type": "fixed", "amount": eur(500)}), "EUR 5.00 off, EUR 37.00 to pay"),
        (json!({"type": "fixed", "amount": eur(9900)}), "EUR 42.00 off, EUR 0.00 to pay"),
        (json!({"type": "none"}), "EUR 0.00 off, EUR 42.00 to pay"),
    ];
    for (discount, expected) in cases {
        assert_eq!(text("apply_discount", json!({"discount": discount, "subtotal": subtotal})).await, expected);
    }
    let buy = json!({"discount": {"type": "buy_get_one_free", "sku": "CUP-2001", "buy": 2}, "subtotal": subtotal});
    assert_eq!(
        error("apply_discount", buy).await,
        "a buy-get-one-free discount needs the cart's items: use price_cart"
    );
    // The schema's bounds (1 to 90) are the model's guide; the tool checks them itself.
    let steep = json!({"discount": {"type": "percent", "percent": 95}, "subtotal": subtotal});
    assert_eq!(error("apply_discount", steep).await, "a discount of 95% is not 1 to 90%");
    let usd = json!({"discount": {"type": "fixed", "amount": {"cents": 500, "currency": "USD"}}, "subtotal": subtotal});
    assert_eq!(error("apply_discount", usd).await, "the discount is in USD, the cart in EUR");
}

#[tokio::test]
async fn quote_shipping_reads_each_adjacently_tagged_variant() {
    assert_eq!(text("quote_shipping", json!({"shipping": {"method": "pickup"}})).await, "pickup at the shop: EUR 0.00");
    let paris = json!({"name": "Jean Dupont", "street": "1 rue de Rivoli", "postal_code": "75001", "city": "Paris", "country": "FR"});
    assert_eq!(
        text("quote_shipping", json!({"shipping": {"method": "post", "details": paris}, "weight_grams": 2500})).await,
        "post to Jean Dupont, Paris: EUR 20.95"
    );
    let courier = json!({"method": "courier", "details": {"address": berlin(), "speed": "same_day"}});
    assert_eq!(
        text("quote_shipping", json!({"shipping": courier, "weight_grams": null})).await,
        "same-day courier to Berlin: EUR 12.00"
    );
    assert_eq!(
        error("quote_shipping", json!({"shipping": {"method": "post"}})).await,
        "Tool quote_shipping failed: InvalidArguments: shipping.details: missing required parameter"
    );
}

#[tokio::test]
async fn take_payment_reads_each_externally_tagged_variant() {
    let amount = eur(1999);
    let cases = [
        (
            json!({"card": {"last4": "4242", "holder": "Ada Lovelace"}}),
            "EUR 19.99 charged to Ada Lovelace's card ending 4242",
        ),
        (
            json!({"bank_transfer": "DE89370400440532013000"}),
            "EUR 19.99 awaited by transfer from DE89370400440532013000",
        ),
        (
            json!({"voucher": {"code": "GIFT-25", "balance": eur(2500)}}),
            "EUR 19.99 paid with voucher GIFT-25, EUR 5.01 left on it",
        ),
        (json!({"voucher": {"code": "GIFT-25", "balance": null}}), "EUR 19.99 paid with voucher GIFT-25"),
        (json!({"cash": {"tendered": eur(2000)}}), "EUR 19.99 paid in cash, EUR 0.01 change"),
        (json!({"cash": {}}), "EUR 19.99 to be paid in cash"),
    ];
    for (payment, expected) in cases {
        assert_eq!(text("take_payment", json!({"payment": payment, "amount": amount})).await, expected);
    }
    let short = json!({"payment": {"voucher": {"code": "GIFT-10", "balance": eur(1000)}}, "amount": amount});
    assert_eq!(error("take_payment", short).await, "voucher GIFT-10 covers only EUR 10.00 of EUR 19.99");
    // `Money` denies unknown fields: its schema is a closed object, and a stray field fails the call.
    let taxed = json!({"payment": {"cash": {}}, "amount": {"cents": 1999, "currency": "EUR", "tax": 0}});
    assert_eq!(
        error("take_payment", taxed).await,
        "Tool take_payment failed: InvalidArguments: amount.tax: unknown field `tax`, expected `cents` or `currency`"
    );
}

#[tokio::test]
async fn find_product_tells_untagged_queries_apart_by_their_fields() {
    assert_eq!(
        text("find_product", json!({"query": {"sku": "POT-3001"}})).await,
        "POT-3001 Tea pot, cast iron (EUR 45.00)"
    );
    assert_eq!(
        text("find_product", json!({"query": {"words": "tea loose", "category": null}})).await,
        "TEA-1001 Green tea, loose (EUR 24.00)\nTEA-1002 Black tea, loose (EUR 18.00)"
    );
    assert_eq!(
        text("find_product", json!({"query": {"words": "tea", "category": "tableware"}})).await,
        "CUP-2001 Tea cup, blue (EUR 9.50)\nPOT-3001 Tea pot, cast iron (EUR 45.00)"
    );
    assert_eq!(
        text("find_product", json!({"query": {"min": eur(1000), "max": eur(2500)}})).await,
        "TEA-1001 Green tea, loose (EUR 24.00)\nTEA-1002 Black tea, loose (EUR 18.00)"
    );
    assert_eq!(text("find_product", json!({"query": {"sku": "NOPE-000"}})).await, "No product found.");
    assert_eq!(
        error("find_product", json!({"query": {"colour": "blue"}})).await,
        "Tool find_product failed: InvalidArguments: query: data did not match any variant of untagged enum \
         ProductQuery"
    );
}

#[tokio::test]
async fn rate_products_averages_stars_per_product() {
    let ratings = json!({"TEA-1001": [5, 4, 4], "CUP-2001": [], "POT-3001": [2]});
    assert_eq!(
        text("rate_products", json!({"ratings": ratings})).await,
        "CUP-2001: not rated\nPOT-3001: 2.0 stars from 1 rating\nTEA-1001: 4.3 stars from 3 ratings"
    );
    assert_eq!(error("rate_products", json!({"ratings": {"TEA-1001": [6]}})).await, "TEA-1001: 6 stars is not 1 to 5");
}

#[tokio::test]
async fn shortest_route_walks_a_grid_of_tiles() {
    let rows =
        json!([["open", "open", "open", "wall"], ["wall", "mud", "open", "wall"], ["open", "open", "open", "open"],]);
    assert_eq!(
        text("shortest_route", json!({"maze": {"rows": rows, "start": [0, 0], "goal": [2, 3]}})).await,
        "The cheapest route costs 5: 1 per open tile, 3 per mud tile."
    );
    // Through the mud is cheaper than around it here.
    let rows = json!([["open", "mud", "open"], ["open", "wall", "open"], ["open", "open", "open"]]);
    assert_eq!(
        text("shortest_route", json!({"maze": {"rows": rows, "start": [0, 0], "goal": [0, 2]}})).await,
        "The cheapest route costs 4: 1 per open tile, 3 per mud tile."
    );
    let walled = json!([["open", "wall", "open"]]);
    assert_eq!(
        error("shortest_route", json!({"maze": {"rows": walled, "start": [0, 0], "goal": [0, 2]}})).await,
        "no route: walls block the way"
    );
    let outside = json!({"maze": {"rows": [["open"]], "start": [0, 0], "goal": [3, 3]}});
    assert_eq!(error("shortest_route", outside).await, "start and goal must lie within the 1×1 grid");
}
