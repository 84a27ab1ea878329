import { describe, expect, it } from "vitest";
import { escapeHtml, escapeText, jsonForScript } from "../../worker/lib/html";

describe("what the Worker writes into pages", () => {
  const hostile = `</script><script>alert("x")</script> & <!-- \u2028\u2029 'q'`;

  it("JSON for a <script> block: nothing that ends the block or a JS line, and it reads back the same", () => {
    const json = jsonForScript({ title: hostile, nested: [hostile] });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain("\\u003c/script\\u003e");
    expect(json).toContain("\\u0026");
    expect(json).toContain("\\u2028\\u2029");
    expect(JSON.parse(json)).toEqual({ title: hostile, nested: [hostile] });
  });

  it("text keeps quotes readable, attribute values escape them too", () => {
    expect(escapeText(hostile)).toBe(`&lt;/script&gt;&lt;script&gt;alert("x")&lt;/script&gt; &amp; &lt;!-- \u2028\u2029 'q'`);
    expect(escapeHtml(hostile)).toBe(
      `&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;!-- \u2028\u2029 &#39;q&#39;`,
    );
  });
});
