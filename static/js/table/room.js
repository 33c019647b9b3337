/* The room's terms on the table page (config.room, docs/protocol.md): points or coins,
 * the base unit N, the fee A (系统回收) or classic's percent of each winner's gain and
 * its cap on the coins' multiplier, the stake a coin room freezes for a game, and
 * classic's 等级倍率 (RULES §9); and my coins: the balance with what is frozen
 * (config.wallet, then the `wallet` of the `table` messages sent to me). */

import { levelMultiplierOf } from "./facts.js";
import { config, dom, state, t } from "./page.js";

export function renderRoom() {
  const room = config.room || {};
  const parts = [];
  if (room.ruleset_name) {
    parts.push(room.ruleset_name);
  }
  const coins = room.kind === "coins" || room.coins === true;
  parts.push(t(coins ? "room_coins" : "room_points"));
  if (room.base_unit !== undefined && room.base_unit !== null) {
    parts.push(t("room_unit", { unit: room.base_unit }));
  }
  if (coins && room.fee_percent) {
    parts.push(t("room_fee_percent", { percent: room.fee_percent }));
  } else if (coins && room.fee !== undefined && room.fee !== null) {
    parts.push(t("room_fee", { fee: room.fee }));
  }
  if (coins && room.coin_cap) {
    parts.push(t("room_coin_cap", { cap: room.coin_cap }));
  }
  const level = levelMultiplierOf(state.game, state.table);
  if (level !== null) {
    parts.push(t("room_level", { multiplier: level }));
  }
  if (coins && room.stake) {
    parts.push(t("room_stake", { stake: room.stake }));
  }
  const wallet = state.wallet;
  if (coins && wallet) {
    // What I can use, and apart from it what this game holds (frozen coins have left
    // the balance: "of which frozen" would read as a contradiction at a balance of 0).
    parts.push(wallet.frozen ? t("wallet_frozen", { balance: wallet.balance,
      frozen: wallet.frozen, total: wallet.balance + wallet.frozen })
      : t("wallet", { balance: wallet.balance }));
  }
  dom.roomInfo.textContent = parts.join(" · ");
  dom.roomInfo.hidden = false;
  dom.roomInfo.dataset.kind = coins ? "coins" : "points";
  if (level !== null) {
    dom.roomInfo.dataset.level = String(level);
  } else {
    delete dom.roomInfo.dataset.level;
  }
  if (wallet) {
    dom.roomInfo.dataset.balance = String(wallet.balance);
    dom.roomInfo.dataset.frozen = String(wallet.frozen);
  }
}
