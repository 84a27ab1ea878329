import { useNavigate } from "react-router-dom";
import { PAYMENT_TEXTS } from "../../../domain/payments";
import { toastError } from "../../lib/toast";

/** "Kontakt selger" after a purchase: the conversation the sale opened, or the error toast of docs/product.md "Error messages". */
export function useOpenConversation(): (conversationId: string | null) => void {
  const navigate = useNavigate();
  return (conversationId) => {
    if (!conversationId) {
      toastError("Feil", PAYMENT_TEXTS.chatFailed);
      return;
    }
    navigate(`/chat/${conversationId}`);
  };
}
