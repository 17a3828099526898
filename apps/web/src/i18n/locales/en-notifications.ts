/** English texts of the notification centre (the bell). Merged into `en` as `notificationCentre`. */
export const notificationCentreTexts = {};
