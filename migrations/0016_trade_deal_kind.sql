-- One word per concept (decision 094): a completed swap of toys is a "trade" in code and data.
-- Reviews written before this keep their deal under the old name; rename it so they stay found.
UPDATE `reviews` SET `deal_kind` = 'trade' WHERE `deal_kind` = 'swap';
