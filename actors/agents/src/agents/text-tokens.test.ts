import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { estimateTextTokens } from "./text-tokens.js";

// Issue #31: the estimate must not undercount non-Latin scripts and emoji
// several-fold. Each sample is compared with OpenAI's o200k_base tokenizer
// (GPT-4o, GPT-4.1, o-series) as gpt-tokenizer counts it.
const ENGLISH =
  "The quick brown fox jumps over the lazy dog. Durable agents survive crashes and deploys without repeating a payment.";
const SAMPLES: Record<string, string> = {
  chinese:
    "持久化的智能体可以在崩溃和部署后继续运行，不会重复付款。我们的系统把每个会话当作一个虚拟参与者来托管。",
  "chinese, news":
    "人工智能正在改变我们的生活方式。从智能手机到自动驾驶汽车，这项技术已经渗透到社会的各个角落。专家认为，未来十年将是人工智能发展的关键时期。",
  "chinese, places":
    "北京是中华人民共和国的首都，也是全国的政治、文化中心。长城是世界上最伟大的建筑之一，吸引了无数游客。",
  japanese:
    "耐久性のあるエージェントは、クラッシュやデプロイの後も動き続け、支払いを二度行うことはありません。",
  "japanese, chat":
    "今日はとても良い天気ですね。公園で散歩をしたり、友達とカフェでコーヒーを飲んだりしました。明日も晴れるといいです。",
  korean: "내구성 있는 에이전트는 충돌과 배포 후에도 계속 실행되며 결제를 반복하지 않습니다.",
  "korean, chat":
    "안녕하세요. 오늘은 날씨가 정말 좋네요. 주말에 친구들과 함께 한강 공원에 가서 자전거를 탈 계획입니다.",
  emoji: "👍🏽🎉🚀😀❤️🔥🇫🇷👨‍👩‍👧🙂🤖✨🍕🐱‍👤💡",
  "emoji, faces": "🙂🙃😉😊😇🥲😋😛😜🤪😝🤑🤗🤭🫢🫣🤫🤔🫡🤐🤨😐😑😶",
  "emoji, flags": "🇺🇸🇬🇧🇯🇵🇨🇳🇰🇷🇩🇪🇫🇷🇮🇹🇪🇸🇧🇷",
  "emoji in text": "Great job 🎉🎉 ship it 🚀 thanks ❤️ see you 👋🏻",
  russian: "Надёжные агенты переживают сбои и развёртывания и никогда не повторяют платёж.",
  arabic: "الوكلاء المتينون ينجون من الأعطال وعمليات النشر ولا يكررون الدفع أبدًا.",
  hindi: "टिकाऊ एजेंट क्रैश और डिप्लॉय के बाद भी चलते रहते हैं और भुगतान कभी नहीं दोहराते।",
  thai: "เอเจนต์ที่ทนทานรอดจากการล่มและการปรับใช้ และไม่เคยชำระเงินซ้ำ",
  greek: "Οι ανθεκτικοί πράκτορες επιβιώνουν από σφάλματα και αναπτύξεις.",
};

describe("estimateTextTokens against a tokenizer (issue #31)", () => {
  it.each(Object.entries(SAMPLES))("%s: within ±25 % of o200k_base", (_, text) => {
    const counted = o200k(text).length;
    const estimated = estimateTextTokens(text);
    expect(estimated).toBeGreaterThanOrEqual(Math.floor(counted * 0.75));
    expect(estimated).toBeLessThanOrEqual(Math.ceil(counted * 1.25));
  });

  it("english: at least o200k_base's count, at most 1.5 × it (4 characters per token)", () => {
    const counted = o200k(ENGLISH).length;
    expect(estimateTextTokens(ENGLISH)).toBeGreaterThanOrEqual(counted);
    expect(estimateTextTokens(ENGLISH)).toBeLessThanOrEqual(counted * 1.5);
  });

  it("characters ÷ 4, the former rule, undercounted CJK and emoji by half or more", () => {
    for (const name of ["chinese", "japanese", "korean", "emoji", "emoji, faces"]) {
      const text = SAMPLES[name]!;
      expect(Math.ceil(text.length / 4)).toBeLessThan(o200k(text).length / 2);
    }
  });

  it("counts ASCII as before (⌈characters ÷ 4⌉) and is 0 for empty text", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("hello world")).toBe(3);
    expect(estimateTextTokens("x".repeat(4000))).toBe(1000);
    expect(estimateTextTokens("持久化的智能体")).toBe(6);
    // A lone surrogate is counted, not skipped.
    expect(estimateTextTokens("\ud83d")).toBe(1);
  });
});
